// crosscheck: equivalent
// args: --reference=sum_ref --blockDim=8 --array-len=out=1,in=8 --assume=float-reassoc
// The float tree reduction under `--assume=float-reassoc`: the sums are one multiset
// of terms (the reference's `0.0f +` dropped: a real sum's zero).
__global__ void sum_kern(float *out, const float *in) {
    __shared__ float s[8];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int d = 4; d > 0; d /= 2) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        out[0] = s[0];
}

void sum_ref(float *out, const float *in) {
    float acc = 0.0f;
    for (int i = 0; i < 8; i++)
        acc += in[i];
    out[0] = acc;
}
