//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//write-write race on sums

// A float `cg::reduce` (an arbitrary float to kpl, as the math library's results: the
// order of its additions is the implementation's) whose result every tile's first thread
// writes to one element: the four tiles race.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_sums(const float *x, float *sums) {
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  float s = cg::reduce(tile, x[threadIdx.x], cg::plus<float>{});
  if (tile.thread_rank() == 0) {
    sums[0] = s;
  }
}
