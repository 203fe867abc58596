// args: --blockDim=16 --gridDim=2
// A pointer parameter of a __device__ function is the caller's array, from the element
// the argument points at (fixed at the call).
__device__ void store(int *dst, const int *src, int i) {
  dst[i] = src[i] + 1;
}

__device__ int sum2(const int *p) {
  return p[0] + p[1];
}

__global__ void k(int *out, int *in) {
  __shared__ int tile[32];
  int t = threadIdx.x;
  store(tile, in + blockIdx.x * 16, t);
  __syncthreads();
  out[blockIdx.x * 16 + t] = sum2(&tile[2 * (t / 2)]);
}
