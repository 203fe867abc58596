//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[4] --only-intra-group
//barrier may be reached by non-uniform control flow

// `--only-intra-group` leaves out races between blocks and nothing else: a grid barrier
// that one block skips still deadlocks the GPU, and is reported.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *A) {
  if (blockIdx.x != 2) cg::this_grid().sync();
  A[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
