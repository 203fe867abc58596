//pass
//--blockDim=64 --gridDim=1 --warp-sync=32

// Under --warp-sync a warp runs in lock step, so __syncwarp orders nothing more; warpSize
// is 32.
__global__ void k(int *A) {
  unsigned int lane = threadIdx.x % warpSize;
  A[threadIdx.x] = lane;
  __syncwarp();
  if (lane > 0) A[threadIdx.x] = A[threadIdx.x - 1] + 1;
}
