// crosscheck: equivalent
// args: --reference=scan_ref --blockDim=8 --array-len=8
// Hillis and Steele's inclusive scan of integers in one block against the running sum.
__global__ void scan_kern(int *data) {
    __shared__ int s[8];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    for (int d = 1; d < 8; d *= 2) {
        int v = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    data[t] = s[t];
}

void scan_ref(int *data) {
    for (int i = 1; i < 8; i++)
        data[i] += data[i - 1];
}
