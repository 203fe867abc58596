//xfail:NOT_ALL_VERIFIED
//--blockDim=[64] --gridDim=[1]
//confirmed write-write race on c\[0\]

// A function-scope `static` is one object for the whole grid (CUDA makes it a `__device__`
// variable), not one per thread: every thread writes the same `c`.
__global__ void k(int *A) {
  static int c;
  c = threadIdx.x;
  A[threadIdx.x] = c;
}
