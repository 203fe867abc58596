//pass
//--blockDim=128 --gridDim=4
//
// Indigo2's triangle-counting reduction: each block sums into a shared counter with
// `atomicAdd_block`, then thread 0 adds the block's sum to a global `cuda::atomic` through
// the pointer, `(*g_count) += b_count`: an atomic addition (the dereferenced pointer is the
// atomic object), so the blocks do not race.
#include <cuda/atomic>
typedef cuda::atomic<int> data_type;

__global__ void count(data_type *g_count, const int *flags) {
  __shared__ int b_count;
  if (threadIdx.x == 0) b_count = 0;
  __syncthreads();
  if (flags[blockIdx.x * blockDim.x + threadIdx.x] & 1) atomicAdd_block(&b_count, 1);
  __syncthreads();
  if (threadIdx.x == 0) (*g_count) += b_count;
}
