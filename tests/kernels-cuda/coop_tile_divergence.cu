//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//confirmed warp divergence
/* A tile-wide vote that only each tile's first thread runs: the tile's other lanes, which
   its mask names, do not. */
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void first_votes(const int *flags, int *out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (tile.thread_rank() == 0 && tile.any(flags[i] != 0))
    out[i / 16] = 1;
}
