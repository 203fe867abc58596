//xfail:NOT_ALL_VERIFIED
//--blockDim=256 --gridDim=8192
//confirmed read-write race on partial
//
// llm.c's softmax_forward_kernel4 in small: each group sums a row, the warps' partial sums
// meet in shared memory, and the broadcast read of `partial[0]` races with warp 0's next
// write of it (no barrier between). The launch is 8192 groups with rows of 4096: replaying
// the witness in the whole launch would take about 150 M thread-statements, past the
// replay's budget; the witness's group run alone (a schedule where it starts first)
// shows the race at once.
__global__ void row_sums(int *out, const int *in, int n) {
    __requires(n == 4096);
    __shared__ int partial[8];
    int v = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        v += in[blockIdx.x * n + i];
    }
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int w = 0; w < 8; w++) s += partial[w];
        partial[0] = s;
    }
    __syncthreads();
    int total = partial[0];
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}
