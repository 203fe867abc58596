// args: --blockDim=[8,2] --gridDim=2
// Cooperative groups as parameters: a `thread_block`/`grid_group` parameter is dropped, and
// so is the group where it is an argument; the groups' members are the ids they stand for.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int at(const int *s, cg::thread_block cta, int d) {
  cg::sync(cta);
  return s[(cta.thread_rank() + d) % cta.size()];
}
__device__ unsigned rank(const cg::grid_group &g) { return g.thread_rank(); }
__global__ void k(int *A) {
  __shared__ int s[16];
  cg::thread_block cta = cg::this_thread_block();
  s[cta.thread_rank()] = cta.group_index().x;
  A[rank(cg::this_grid())] = at(s, cta, 1) + at(s, cg::this_thread_block(), 2);
}
