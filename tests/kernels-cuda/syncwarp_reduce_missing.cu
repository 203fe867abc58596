//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//confirmed .*race on s\[

// syncwarp_reduce.cu without its `__syncwarp()`s: a lane reads what another lane of its
// warp writes in the same step, and nothing orders the two on Volta and later.

__global__ void reduce(const float *in, float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    float v = s[t] + s[t + 32];
    s[t] = v;
    for (unsigned d = 16; d > 0; d /= 2) {
      if (t < d) {
        v = s[t] + s[t + d];
      }
      if (t < d) {
        s[t] = v;
      }
    }
  }
  if (t == 0) {
    out[blockIdx.x] = s[0];
  }
}
