// crosscheck: equivalent
// args: --reference=cpu_arr_sqrt --local_size=16 --num_groups=4 --kernel-args=arr_sqrt_kern,64 --array-len=64
// KLEE-CL's Listing 1 (HVC 2011): the square root of every element, in OpenCL and in C.
__kernel void arr_sqrt_kern(__global float *out, __global const float *in, uint size) {
    size_t i = get_global_id(0);
    if (i < size)
        out[i] = sqrt(in[i]);
}

void cpu_arr_sqrt(__global float *out, __global const float *in, uint size) {
    for (uint i = 0; i < size; ++i)
        out[i] = sqrt(in[i]);
}
