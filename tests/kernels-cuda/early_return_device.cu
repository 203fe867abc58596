//pass
//--blockDim=64 --gridDim=8

// A device function with early returns, called by every thread.
__device__ unsigned pick(unsigned i, unsigned n) {
  if (i >= n) return n - 1;
  if (i == 0) return 0;
  return i;
}
__global__ void k(int *out, unsigned n) {
  __requires(n == 512);
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[pick(g, n)] = (int)g;
}
