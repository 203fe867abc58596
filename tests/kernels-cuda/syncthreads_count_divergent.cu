//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//barrier may be reached by non-uniform control flow

// __syncthreads_count is a barrier: reached by half the block, it diverges.
__global__ void k(int *out) {
  if (threadIdx.x < 32) {
    out[threadIdx.x] = __syncthreads_count(1);
  }
}
