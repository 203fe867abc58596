//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[1]
//assertion might not hold

// The remainder of a negative dividend is negative in C (truncating division): the claim
// that it is not is refuted, with a confirmed witness.
__global__ void k(int *A, long long width, long long base) {
  __requires(width > 1);
  long long i = base - (long long)threadIdx.x;
  long long col = i % width;
  __assert(col >= 0);
  A[threadIdx.x] = (int)col;
}
