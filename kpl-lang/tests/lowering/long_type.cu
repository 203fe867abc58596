// args: --blockDim=32
// 64-bit integer types are refused, never truncated to 32 bits.
__global__ void k(int *A) {
  long long x = 1;
  unsigned long y = 2;
  A[threadIdx.x] = x + y;
}
