// args: --blockDim=32
// 64-bit integers are two words, never truncated to 32 bits: 1ULL << 32 is not 0 (its
// high word is 1).
__global__ void k(int *A) {
  long long x = 1;
  unsigned long y = 2;
  A[threadIdx.x] = (1ULL << 32) == 0;
}
