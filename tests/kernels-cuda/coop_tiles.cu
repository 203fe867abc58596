//pass
//--blockDim=128 --gridDim=4
/* Cooperative groups' warp tiles: a 32-lane tile reduces through a device function that
   takes the tile, an 8-lane tile exchanges neighbours and votes; each tile's lane 0 writes. */
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float tile_sum(const cg::thread_block_tile<32> &tile, float v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v;
}

__global__ void reduce_tiles(const float *in, float *sums, float *pairs) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  auto tile8 = cg::tiled_partition<8>(block);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = tile_sum(tile32, in[i]);
  if (tile32.thread_rank() == 0)
    sums[i / 32] = v;
  float w = tile8.shfl(in[i], tile8.thread_rank() ^ 1);
  unsigned b = tile8.ballot(w > 0.0f);
  bool any = tile8.any(b != 0);
  if (tile8.thread_rank() == 0 && any)
    pairs[tile8.meta_group_rank() + blockIdx.x * tile8.meta_group_size()] = w;
}
