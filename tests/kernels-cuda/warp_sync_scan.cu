//pass
//--blockDim=64 --gridDim=1 --warp-sync=32

// GPUVerify's warp-synchronous mode: a scan within each warp of 32 threads needs no
// barrier, because a warp runs in lock step and sees its own writes at once.
__global__ void scan(int *A) {
  unsigned int tid = threadIdx.x;
  unsigned int lane = tid % 32;
  if (lane >= 1) A[tid] = A[tid - 1] + A[tid];
  if (lane >= 2) A[tid] = A[tid - 2] + A[tid];
  if (lane >= 4) A[tid] = A[tid - 4] + A[tid];
  if (lane >= 8) A[tid] = A[tid - 8] + A[tid];
  if (lane >= 16) A[tid] = A[tid - 16] + A[tid];
}
