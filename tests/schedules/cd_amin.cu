// Run with --blockDim=4 --gridDim=1 (tests/schedules.rs).
// The CD paper's aMin (NFM 2013): an atomic minimum of floats built from a compare-and-swap
// loop on the float's bits. A swap that fails (another thread changed the minimum in
// between) is retried with the value it found, so every schedule ends with the least.

__device__ void atomic_min_float(float *addr, float val) {
    int old = atomicAdd((int *)addr, 0);
    while (val < __int_as_float(old)) {
        int prev = atomicCAS((int *)addr, old, __float_as_int(val));
        if (prev == old)
            break;
        old = prev;
    }
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
