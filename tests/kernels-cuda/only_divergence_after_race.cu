//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[1] --only-divergence
//barrier may be reached by non-uniform control flow

// `--only-divergence` leaves out races and nothing else: the divergence after the race is
// reported (and `kpl run` with the same option finds it past the race).
__global__ void k(int *A) {
  A[0] = threadIdx.x;
  if (threadIdx.x < 16) __syncthreads();
}
