// perf: --blockDim=64 --gridDim=1
// Branches on the thread id within a warp, and a loop whose trip count differs per lane.
__global__ void k(int *out) {
  if (threadIdx.x % 2 == 0) { // expect: warp_divergence
    out[threadIdx.x] = 1;
  }
  for (int i = 0; i < threadIdx.x % 4; i++) { // expect: warp_divergence
    out[threadIdx.x] += i;
  }
}
