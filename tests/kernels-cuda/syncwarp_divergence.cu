//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//confirmed warp divergence

// A full-mask `__syncwarp()` that only half of each warp reaches.

__global__ void half(int *a) {
  unsigned t = threadIdx.x;
  a[t] = t;
  if (t % 32 < 16) {
    __syncwarp();
  }
}
