//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[1] --vcgen-opt=/checkArrays:B
//race on B\[0\]

// `/checkArrays:B` leaves out the races on `A` and nothing else: the later race on `B`
// is still reported (and `kpl run` with the same option finds it past the one on `A`).
__global__ void k(int *A, int *B) {
  A[0] = threadIdx.x;
  B[0] = threadIdx.x;
}
