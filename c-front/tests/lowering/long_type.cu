// args: --blockDim=32
// `long long` and `unsigned long` variables are two words each, the low one first; a sum
// stored in an int keeps the low word.
__global__ void k(int *A) {
  long long x = 1;
  unsigned long y = 2;
  A[threadIdx.x] = x + y;
}
