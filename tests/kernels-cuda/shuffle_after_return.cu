//pass
//--blockDim=64 --gridDim=2

// A warp sum after an early return: the lanes past `n` have left the kernel, which CUDA
// allows for the lanes a full mask names (their shuffled values are undefined, so a
// correct kernel would not use them; here they only make the sum wrong, not racy).

__global__ void warp_sums(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  float v = in[i];
  for (int o = 16; o > 0; o /= 2) {
    v += __shfl_down_sync(0xffffffff, v, o);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, v);
  }
}
