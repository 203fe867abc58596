// perf: --blockDim=128 --gridDim=2
// Branches that are uniform in each warp (by warp index, by group, on a param).
__global__ void k(int *out, int n) {
  if (threadIdx.x / 32 == 1) {
    out[blockIdx.x * 128 + threadIdx.x] = 1;
  }
  if (blockIdx.x == 0 && n > 3) {
    out[threadIdx.x] = 2;
  }
  for (int i = 0; i < n % 8; i++) {
    out[blockIdx.x * 128 + threadIdx.x] += i;
  }
}
