// crosscheck: inconclusive
// args: --reference=ref --blockDim=4 --array-len=4
// A reference that scales in double precision (`0.1` is a `double` in C): kpl computes
// `double`s as `float`s, so it gives no verdict on the values, and says why.
__global__ void k(float *out, const float *in) {
    int i = threadIdx.x;
    out[i] = in[i] * 0.1f;
}

void ref(float *out, const float *in) {
    for (int i = 0; i < 4; i++)
        out[i] = in[i] * 0.1;
}
