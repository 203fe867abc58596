// args: --blockDim=64 --gridDim=1
// A kernel that may return early gives its warp collectives the `return` flag as the lanes
// that have exited (after `;`): CUDA does not need those to run them.
__global__ void k(int *a, int n) {
  if (threadIdx.x >= n) return;
  int v = __shfl_xor_sync(0xffffffff, a[threadIdx.x], 1);
  __syncwarp();
  a[threadIdx.x] = v;
}
