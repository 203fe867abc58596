// args: --blockDim=64 --gridDim=1
// `warpSize` is 32; `__syncwarp(mask)` is KPL's warp barrier `warp sync(mask)` for the
// lanes of the mask (the whole warp without one); under `--warp-sync` it is a no-op
// (syncwarp_warp_sync.cu).
__global__ void k(int *A, unsigned m) {
  A[threadIdx.x] = warpSize;
  __syncwarp();
  if (threadIdx.x % 32 < 16) {
    __syncwarp(m & 0xffff);
  }
}
