// args: --blockDim=16 --gridDim=1
// `__device__` functions are inlined; an early return disables the returned threads.
__device__ int clampi(int v, int hi) {
  if (v < 0) return 0;
  if (v >= hi) return hi - 1;
  return v;
}
__device__ void store(int *unused, int i) { }
__device__ inline int twice(int v) { return v + v; }
__global__ void k(int *out) {
  int t = threadIdx.x;
  out[clampi(t - 3, 8)] = twice(t);
}
