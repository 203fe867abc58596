// args: --blockDim=64 --gridDim=1
// Cooperative groups' warp tiles become warp intrinsics on the tile's lanes: the mask is
// the tile's N lanes from its first lane, shuffles take width N, a ballot counts from the
// tile's first lane, the rank and group numbers come from the linear thread id; a tile
// parameter and the tile passed for it are dropped.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int pass_on(cg::thread_block_tile<16> t, int v) {
  return t.shfl_up(v, 1);
}

__global__ void k(int *a) {
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  int v = pass_on(t, a[threadIdx.x]);
  unsigned b = t.ballot(v > 0);
  a[threadIdx.x] = t.shfl_xor(v, t.thread_rank() & 1) + (int)b + t.meta_group_rank() * t.size();
}
