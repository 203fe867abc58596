// args: --blockDim=64 --gridDim=1
// `warpSize` is 32; `__syncwarp` orders a warp only, which kpl models only under
// `--warp-sync` (where it is a no-op), so here it is refused.
__global__ void k(int *A) {
  A[threadIdx.x] = warpSize;
  __syncwarp();
}
