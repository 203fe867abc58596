// perf: --blockDim=64 --gridDim=1
// Misaligned by one word: 5 sectors where 4 would do.
__global__ void k(const int *in, int *out) {
  out[threadIdx.x] = in[threadIdx.x + 1]; // expect: uncoalesced 5/4
}
