//pass
//--blockDim=128 --gridDim=4
//
// Locals of an atomic type in a grid-stride loop (as Indigo2's graph codes write them:
// `const data_type s = dist[v].load();` with `typedef cuda::atomic<int> data_type;`): a
// thread's own atomic variable is its own, its operations plain ones on it, so only the
// shared array's atomics are checked between threads.
#include <cuda/atomic>
typedef cuda::atomic<int> data_type;

__global__ void relax(data_type *dist, data_type *best, const int *src, const int *dst) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < 2048; e += gridDim.x * blockDim.x) {
    const data_type s = dist[src[e] & 1023].load(cuda::memory_order_relaxed);
    data_type next = s + 1;
    next.fetch_add(0);
    best[dst[e] & 1023].fetch_min(next.load());
  }
}
