//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//confirmed read-write race on s\[

// `__syncwarp()` orders the lanes of one warp only: thread t reads what thread t + 32 (or
// t - 32), of the other warp, wrote before it.

__global__ void other_warp(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncwarp();
  out[t] = s[(t + 32) % 64];
}
