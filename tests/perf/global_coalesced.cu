// perf: --blockDim=[16,8] --gridDim=4
// Coalesced: a warp reads two rows of 16 consecutive words, each row sector-aligned; a
// permutation within a sector and a broadcast are coalesced too.
__global__ void k(const int *in, int *out) {
  int row = blockIdx.x * 8 + threadIdx.y;
  int a = in[row * 64 + threadIdx.x];
  int b = in[(threadIdx.y * 16 + threadIdx.x) ^ 1];
  int c = in[7];
  out[row * 16 + threadIdx.x] = a + b + c;
}
