//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//possible read-write race on A

// The same scan without `--warp-sync`: threads of a warp give no ordering (independent
// thread scheduling), so reading a neighbour's element races with its write.
__global__ void scan(int *A) {
  unsigned int tid = threadIdx.x;
  unsigned int lane = tid % 32;
  if (lane >= 1) A[tid] = A[tid - 1] + A[tid];
  if (lane >= 2) A[tid] = A[tid - 2] + A[tid];
}
