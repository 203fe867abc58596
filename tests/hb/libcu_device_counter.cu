//pass
//--blockDim=32 --gridDim=2

// hb: ok --input=lock.json
// Every thread of two blocks counts on one global counter through a libcu++ atomic of
// device scope: atomic for every thread of the launch, so nothing races.
#include <cuda/atomic>

__global__ void counter(int *lock, int *count) {
  cuda::atomic_ref<int, cuda::thread_scope_device> c(count[0]);
  c.fetch_add(1, cuda::memory_order_relaxed);
}
