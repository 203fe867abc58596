// args: --blockDim=64 --gridDim=1
// `cg::sync(t)` of a warp tile is the tile's `t.sync()`: a `__syncwarp` of its lanes;
// `cg::sync(cta)` of the block is `__syncthreads()`.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(float *in, float *out) {
  __shared__ float tmp[64];
  cg::thread_block cta = cg::this_thread_block();
  tmp[cta.thread_rank()] = in[cta.thread_rank()];
  cg::sync(cta);
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  for (int i = tile32.size() / 2; i > 0; i >>= 1) {
    if (tile32.thread_rank() < i) {
      tmp[cta.thread_rank()] += tmp[cta.thread_rank() + i];
    }
    cg::sync(tile32);
  }
  if (tile32.thread_rank() == 0) {
    out[cta.thread_rank() / 32] = tmp[cta.thread_rank()];
  }
}
