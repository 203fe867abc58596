// perf: --blockDim=64 --gridDim=2
// Stride 2: a warp touches 8 sectors where 4 would do.
__global__ void k(const int *in, int *out) {
  int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = in[2 * i]; // expect: uncoalesced 8/4
}
