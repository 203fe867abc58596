//pass
//--blockDim=128 --gridDim=4
/* Per warp, how many inputs are positive and their largest value: CUDA's sm_80 warp
   reductions, written by each warp's lane 0. */
__global__ void warp_stats(const int *in, unsigned *count, int *largest) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned c = __reduce_add_sync(0xffffffff, v > 0 ? 1u : 0u);
  int m = __reduce_max_sync(0xffffffff, v);
  if (threadIdx.x % 32 == 0) {
    count[i / 32] = c;
    largest[i / 32] = m;
  }
}
