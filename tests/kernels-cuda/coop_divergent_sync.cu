//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//barrier divergence

// Only even threads reach the block's `sync(t)`: barrier divergence.
#include <cooperative_groups.h>
using namespace cooperative_groups;

__global__ void k(int *A)
{
  thread_block t = this_thread_block();
  if (threadIdx.x % 2 == 0) {
    int v = A[threadIdx.x + 2];
    sync(t);
    A[threadIdx.x] = v;
  }
}
