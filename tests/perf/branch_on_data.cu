// perf: --blockDim=32 --gridDim=1
// A branch on the data: uniform for the run's inputs, divergent for others.
__global__ void k(const int *in, int *out) {
  if (in[threadIdx.x] == 12345) { // expect: all-inputs warp_divergence
    out[threadIdx.x] = 0;
  }
}
