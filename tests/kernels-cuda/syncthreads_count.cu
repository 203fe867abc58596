//pass
//--blockDim=64 --gridDim=2

// __syncthreads_count and __syncthreads_or are barriers with a count: race-free here.
// (The count itself is abstract to the verifier, as every atomic's result is.)
__global__ void k(int *out) {
  int n = __syncthreads_count(threadIdx.x % 4 == 0);
  out[blockIdx.x * 64 + threadIdx.x] = n + __syncthreads_or(threadIdx.x == 63);
}
