// crosscheck: inconclusive
// args: --reference=ref --blockDim=4 --array-len=4
// A kernel that scales by a `double` literal (`0.1`: CUDA computes `x * 0.1` in double
// precision) against a float reference: no verdict on the values, and the warning says
// where.
__global__ void k(float *out, const float *in) {
    int i = threadIdx.x;
    out[i] = in[i] * 0.1;
}

void ref(float *out, const float *in) {
    for (int i = 0; i < 4; i++)
        out[i] = in[i] * 0.1f;
}
