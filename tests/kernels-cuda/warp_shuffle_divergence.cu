//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//confirmed warp divergence
/* A full-mask shuffle under a bounds check: when n is not a multiple of 32, lanes of the
   last warp the mask names do not run the shuffle (undefined in CUDA). */
__global__ void neighbour_diff(const int *in, int *out, unsigned n) {
  unsigned i = threadIdx.x;
  if (i < n) {
    int v = in[i];
    int next = __shfl_down_sync(0xffffffff, v, 1);
    out[i] = next - v;
  }
}
