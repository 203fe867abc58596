// crosscheck: mismatch
// args: --reference=scan_ref --blockDim=8 --array-len=8
// The scan with its loop stopping one step early (`d < 4`): the last elements miss a term.
__global__ void scan_kern(int *data) {
    __shared__ int s[8];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    for (int d = 1; d < 4; d *= 2) {
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
