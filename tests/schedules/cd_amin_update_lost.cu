// Run with --blockDim=4 --gridDim=1 (tests/schedules.rs).
// The CD paper's aMinUpdate (NFM 2013) with a lost-atomicity bug (`cd_amin_update.cu` is
// right): each thread lowers a shared minimum by reading it and then exchanging in its own
// value, so a thread delayed between the read and the exchange writes back a larger value
// over the smaller ones the others stored meanwhile.

__global__ void amin_update(int *out) {
    __shared__ int m;
    if (threadIdx.x == 0)
        m = 1000;
    __syncthreads();
    int v = (3 - (int)threadIdx.x) * 3;
    int cur = atomicAdd(&m, 0);
    if (v < cur)
        atomicExch(&m, v);
    __syncthreads();
    __assert(m <= v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = m;
}
