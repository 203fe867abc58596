//pass
//--blockDim=32 --gridDim=4

// Iterations of a 1-D stencil over the whole grid, kept in one launch by cooperative
// groups' grid synchronisation: every thread reads its neighbours (in other blocks at the
// edges), then all wait, then each writes its own element, then all wait again.

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
    grid.sync();
  }
}
