//pass
//--blockDim=64 --gridDim=2

// Cooperative groups: the block's `sync()` separates each thread's read of its neighbour's
// element from its write of its own, as `__syncthreads()` does.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *A)
{
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = (threadIdx.x + 1) % blockDim.x + blockIdx.x * blockDim.x;
  int v = A[right];
  block.sync();
  A[i] = v;
}
