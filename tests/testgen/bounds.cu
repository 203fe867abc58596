// testgen: --blockDim=8 --gridDim=1
// An index from a param: in bounds for most values, out of bounds for 16..19, which test
// generation finds by negating the bounds check.
__global__ void k(int *out, unsigned n) {
  __shared__ int s[16];
  s[threadIdx.x] = 0;
  if (n < 20 && threadIdx.x == 0) {
    s[n] = 1;
  }
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
