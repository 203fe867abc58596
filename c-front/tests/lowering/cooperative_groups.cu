// args: --blockDim=32 --gridDim=1
// Cooperative groups: a `thread_block`'s `sync()`, `sync(t)`, `synchronize(t)` and
// `this_thread_block().sync()` are barriers; the grid's is a grid barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *A) {
  cg::thread_block t = cg::this_thread_block();
  cg::grid_group g = cg::this_grid();
  A[threadIdx.x] = 1;
  t.sync();
  A[threadIdx.x + 1] = 2;
  cg::sync(t);
  synchronize(t);
  cg::this_thread_block().sync();
  g.sync();
}
