//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1 --warp-sync=16
//possible read-write race on A

// A scan written for warps of 32 run with warps of 16: lane 16 reads what lane 15, in
// another warp, writes.
__global__ void scan(int *A) {
  unsigned int tid = threadIdx.x;
  unsigned int lane = tid % 32;
  if (lane >= 1) A[tid] = A[tid - 1] + A[tid];
}
