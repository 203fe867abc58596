// args: --blockDim=8 --gridDim=1
// `&m` of a `__shared__` scalar given to a pointer parameter is its one-element array, and
// a cast of it to another 4-byte type is a view of the same words.
__device__ void lower(float *addr, float v) {
  int old = atomicAdd((int *)addr, 0);
  if (v < __int_as_float(old))
    atomicCAS((int *)addr, old, __float_as_int(v));
}
__global__ void k(float *out) {
  __shared__ float m;
  if (threadIdx.x == 0) m = 1.0f;
  __syncthreads();
  lower(&m, 0.5f);
  __syncthreads();
  out[threadIdx.x] = m;
}
