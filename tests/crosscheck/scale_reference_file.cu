// crosscheck: equivalent
// args: --reference-file tests/crosscheck/scale_reference_file.c --reference=scale_ref --blockDim=8 --array-len=8
// A reference in a C file of its own: `a * x + x` in the kernel, `x + x * a` there; equal by
// commutativity alone (IEEE-exact), so the certificate holds rewrite steps and no assumption.
__global__ void scale(float *y, const float *x, float a) {
    int i = threadIdx.x;
    y[i] = a * x[i] + x[i];
}
