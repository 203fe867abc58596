// args: --blockDim=64
// GPUVerify's idiom: invariants before the condition, joined by commas.
__global__ void k(int *A) {
  for (int d = 1; __invariant(d == 1 | d == 2 | d == 4 | d == 8 | d == 16 | d == 32 | d == 64), __global_invariant(d >= 1), d < 64; d <<= 1) {
  }
  int i = threadIdx.x;
  while (__invariant(i >= threadIdx.x), i < 100) {
    A[i] = 0;
    i += 64;
  }
}
