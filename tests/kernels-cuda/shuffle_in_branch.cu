//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//confirmed warp divergence

// shuffle_after_return.cu with the early return turned into a branch around the sum: the
// lanes past `n` are still running the kernel, and the full mask names them.

__global__ void warp_sums(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if (i < n) {
    v = in[i];
    for (int o = 16; o > 0; o /= 2) {
      v += __shfl_down_sync(0xffffffff, v, o);
    }
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, v);
  }
}
