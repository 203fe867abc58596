// crosscheck: equivalent
// args: --reference=saxpy_ref --local_size=4 --num_groups=2 --kernel-args=saxpy,0x40000000,20 --array-len=20
// SAXPY with a grid-stride loop in OpenCL (8 work-items cover 20 elements), against the
// plain loop (a = 2); the reference's pointers carry no address space.
__kernel void saxpy(__global float *y, __global const float *x, float a, uint n) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        y[i] = a * x[i] + y[i];
}

void saxpy_ref(float *y, const float *x, float a, uint n) {
    for (uint i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
