// perf: --blockDim=32 --gridDim=1 --arch=cc1.1
// Compute capability 1.0/1.1: a broadcast is not coalesced (16 transactions per
// half-warp); lane k at word k of an aligned segment is.
__global__ void k(const int *in, int *out) {
  int a = in[0]; // expect: uncoalesced 16/1
  out[threadIdx.x] = a + in[threadIdx.x + 16];
}
