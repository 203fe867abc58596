//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1 --warp-sync=32 --no-benign-tolerance
//possible write-write race on A

// Two threads of one warp writing one element in one statement: which write wins is
// unspecified, warp-synchronous or not.
__global__ void k(int *A) {
  A[threadIdx.x / 2] = threadIdx.x;
}
