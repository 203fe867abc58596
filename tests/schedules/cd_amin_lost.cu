// Run with --blockDim=4 --gridDim=1 (tests/schedules.rs).
// The CD paper's aMin (NFM 2013) with a lost-atomicity bug (`cd_amin.cu` is right): a swap
// that fails because another thread changed the minimum in between is not retried, so a
// thread delayed between its read and its swap loses its smaller value.

__device__ void atomic_min_float(float *addr, float val) {
    int old = atomicAdd((int *)addr, 0);
    if (val < __int_as_float(old))
        atomicCAS((int *)addr, old, __float_as_int(val));
}

__global__ void amin(float *out) {
    __shared__ float m;
    if (threadIdx.x == 0)
        m = 1000.0f;
    __syncthreads();
    float v = (float)(threadIdx.x * 3);
    atomic_min_float(&m, v);
    __syncthreads();
    __assert(m <= v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = m;
}
