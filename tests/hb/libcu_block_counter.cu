//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: race --input=lock.json
// Every thread of two blocks counts on one global counter through a libcu++ atomic of
// block scope: it is atomic only among a block's threads, so the two blocks' increments
// race (ScoRD's scoped race). `libcu_device_counter.cu` is the same at device scope.
#include <cuda/atomic>

__global__ void counter(int *lock, int *count) {
  cuda::atomic_ref<int, cuda::thread_scope_block> c(count[0]);
  c.fetch_add(1, cuda::memory_order_relaxed);
}
