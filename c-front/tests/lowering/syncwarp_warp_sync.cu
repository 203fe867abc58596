// args: --blockDim=64 --gridDim=1 --warp-sync=32
// Under `--warp-sync` a warp is in lock step: `__syncwarp(mask)` orders nothing more.
__global__ void k(int *A) {
  A[threadIdx.x] = warpSize;
  __syncwarp(0xffffffff);
}
