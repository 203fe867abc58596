//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//barrier divergence

// Odd threads return before the barrier.
__global__ void k(int *out) {
  if (threadIdx.x % 2) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}
