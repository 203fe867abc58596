//pass
//--blockDim=64 --gridDim=2

// A float `cg::reduce` returns one value to every thread of its tile (CUDA's contract;
// kpl takes it as an arbitrary float, the same in the whole tile): every lane writing the
// tile's sum to the tile's element writes one value, which GPUVerify's benign rule
// tolerates, as llm.c's `shared_sum[warp_id] = warp_sum` does with whole warps.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_sums(const float *x, float *sums) {
  __shared__ float partial[4];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  float s = cg::reduce(tile, x[blockIdx.x * 64 + threadIdx.x], cg::plus<float>{});
  partial[tile.meta_group_rank()] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = partial[0] + partial[1] + partial[2] + partial[3];
  }
}
