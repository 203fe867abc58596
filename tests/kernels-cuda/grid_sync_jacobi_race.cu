//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=4
//race

// `grid_sync_jacobi.cu` without the second grid synchronisation: the next iteration's reads
// of a neighbour in another block race with that block's write.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void jacobi(float *u, int iters) {
  cg::grid_group grid = cg::this_grid();
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int n = gridDim.x * blockDim.x;
  for (int k = 0; k < iters; k++) {
    float left = u[(i + n - 1) % n];
    float right = u[(i + 1) % n];
    grid.sync();
    u[i] = 0.5f * (left + right);
  }
}
