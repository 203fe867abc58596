// args: --blockDim=32
// 64-bit integers are refused, never truncated to 32 bits (1ULL << 32 would be 0).
__global__ void k(int *A) {
  long long x = 1;
  unsigned long y = 2;
  A[threadIdx.x] = (1ULL << 32) == 0;
}
