// args: --blockDim=32 --gridDim=1
// `cg::reduce(tile, v, op)` is the warp reduction of `op` (plus, less, greater, bit_and,
// bit_or, bit_xor) on the tile's lanes; of a float, the collective and an arbitrary float.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *a, float *f) {
  cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
  int lo = cg::reduce(t, a[threadIdx.x], cg::less<int>());
  float s = cg::reduce(t, f[threadIdx.x], cg::plus<float>());
  a[threadIdx.x] = lo;
  f[threadIdx.x] = s;
}
