//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//confirmed read-write race on count\[0\] \(intra-group\)
//
// An atomic of `thread_scope_thread` is atomic for its own thread only: used by every
// thread of a block it is plain reads and writes, which race.
#include <cuda/atomic>

__global__ void count_all(int *count) {
  cuda::atomic_ref<int, cuda::thread_scope_thread> c(count[0]);
  c.fetch_add(1, cuda::memory_order_relaxed);
}
