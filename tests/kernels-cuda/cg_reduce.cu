//pass
//--blockDim=64 --gridDim=2

// Cooperative groups' `reduce` on warp tiles: a per-tile sum and maximum (the
// `__reduce_*_sync` of the tile's lanes), written by each tile's first thread.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_sums(const int *in, int *sums, unsigned *maxima) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int sum = cg::reduce(tile, v, cg::plus<int>());
  unsigned top = cg::reduce(tile, (unsigned)v, cg::greater<unsigned>());
  if (tile.thread_rank() == 0) {
    sums[i / 16] = sum;
    maxima[i / 16] = top;
  }
}
