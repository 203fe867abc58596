// args: --blockDim=32 --gridDim=2
// A grid-wide barrier across blocks is refused: kpl has no barrier that orders blocks, and
// ordering each block alone would miss what the grid barrier is for.
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(int *A) {
  grid_group g = this_grid();
  A[blockIdx.x] = 1;
  g.sync();
}
