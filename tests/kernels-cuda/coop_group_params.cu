//pass
//--blockDim=[16,4] --gridDim=[2,3]

// Cooperative groups passed to device functions, as CUDA's samples do (`cg::thread_block
// cta` parameters, `cg::sync(cta)` in the callee), and the groups' ids: a block's
// `thread_rank()` is the thread's linear id in its block, the grid's counts blocks first.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int rotate(int *s, int v, cg::thread_block cta) {
  s[cta.thread_rank()] = v;
  cg::sync(cta);
  int r = s[(cta.thread_rank() + 1) % cta.size()];
  cta.sync();
  return r;
}

__device__ unsigned rank_in(const cg::grid_group &grid) {
  return grid.thread_rank();
}

__global__ void k(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  unsigned lin = threadIdx.x + threadIdx.y * blockDim.x;
  __assert(cta.thread_rank() == lin);
  __assert(cta.size() == 64);
  __assert(cg::this_thread_block().thread_index().y == threadIdx.y);
  __assert(cta.group_index().x == blockIdx.x);
  unsigned block = blockIdx.x + blockIdx.y * gridDim.x;
  __assert(grid.block_rank() == block);
  __assert(grid.num_blocks() == 6);
  __assert(grid.size() == 384);
  unsigned g = rank_in(grid);
  __assert(g == block * 64 + lin);
  out[g] = rotate(s, (int)lin, cta);
}
