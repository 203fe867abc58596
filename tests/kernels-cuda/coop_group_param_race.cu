//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//read-write race on s

// A block passed to a device function that synchronises only one of its two exchanges
// through shared memory: the second read races with the neighbour's write.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int exchange(int *s, int v, cg::thread_block cta) {
  s[cta.thread_rank()] = v;
  cta.sync();
  int r = s[(cta.thread_rank() + 1) % cta.size()];
  cta.sync();
  s[cta.thread_rank()] = r;
  return s[(cta.thread_rank() + 1) % cta.size()];
}

__global__ void k(int *out) {
  __shared__ int s[64];
  out[blockIdx.x * 64 + threadIdx.x] = exchange(s, threadIdx.x, cg::this_thread_block());
}
