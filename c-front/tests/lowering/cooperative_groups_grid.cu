// args: --blockDim=32 --gridDim=2
// A grid's synchronisation is KPL's grid barrier, which orders every thread of the launch
// (not each block alone).
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(int *A) {
  grid_group g = this_grid();
  A[blockIdx.x] = 1;
  g.sync();
}
