// Run with --blockDim=4 --gridDim=1 (tests/schedules.rs).
// The CD paper's aMinUpdate (NFM 2013) without its bug (`cd_amin_update_lost.cu`): each
// thread lowers the shared minimum with one `atomicMin`, so every schedule ends with the
// least value.

__global__ void amin_update(int *out) {
    __shared__ int m;
    if (threadIdx.x == 0)
        m = 1000;
    __syncthreads();
    int v = (3 - (int)threadIdx.x) * 3;
    atomicMin(&m, v);
    __syncthreads();
    __assert(m <= v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = m;
}
