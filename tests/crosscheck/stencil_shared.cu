// crosscheck: equivalent
// args: --reference=stencil_ref --blockDim=8 --gridDim=2 --array-len=out=16,in=18
// A 3-point stencil through shared memory with a halo loaded by the block's edge threads,
// against the plain loop: the same three products added in the same order.
#define B 8
__global__ void stencil_kern(float *out, const float *in) {
    __shared__ float s[B + 2];
    int g = blockIdx.x * B + threadIdx.x;
    int t = threadIdx.x + 1;
    s[t] = in[g + 1];
    if (threadIdx.x == 0)
        s[0] = in[g];
    if (threadIdx.x == B - 1)
        s[B + 1] = in[g + 2];
    __syncthreads();
    out[g] = 0.25f * s[t - 1] + 0.5f * s[t] + 0.25f * s[t + 1];
}

void stencil_ref(float *out, const float *in) {
    for (int i = 0; i < 16; i++)
        out[i] = 0.25f * in[i] + 0.5f * in[i + 1] + 0.25f * in[i + 2];
}
