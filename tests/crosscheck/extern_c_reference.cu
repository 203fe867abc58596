// crosscheck: equivalent
// args: --reference=ref --blockDim=8 --param=n=8 --array-len=8
// A reference with C linkage and restricted pointers, a kernel with launch bounds.
__global__ void __launch_bounds__(64) k(float *__restrict__ out, const float *__restrict__ in, const int n) {
    int i = threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1.0f;
}

extern "C" void ref(float *__restrict__ out, const float *__restrict__ in, const int n) {
    for (int i = 0; i < n; ++i)
        out[i] = in[i] + 1.0f;
}
