// crosscheck: equivalent
// args: --reference=sum_ref --blockDim=16 --gridDim=2 --array-len=out=2,in=32
// An integer tree reduction in shared memory, one sum per block, against a sequential
// loop: the same sum for every input, though the kernel adds in another order (integer
// addition is associative).
__global__ void sum_kern(int *out, const int *in) {
    __shared__ int s[16];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 16 + t];
    __syncthreads();
    for (int d = 8; d > 0; d /= 2) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

void sum_ref(int *out, const int *in) {
    for (int b = 0; b < 2; b++) {
        int acc = 0;
        for (int i = 0; i < 16; i++)
            acc += in[b * 16 + i];
        out[b] = acc;
    }
}
