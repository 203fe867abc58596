//pass
//--blockDim=64 --gridDim=2
//
// A counter incremented in a `compare_exchange_weak` loop, the libcu++ idiom: the weak
// exchange may fail even when the value matches (kpl leaves that choice arbitrary), and the
// loop retries with the value it found. Atomics at device scope never race.
#include <cuda/atomic>

__global__ void count(cuda::atomic<unsigned, cuda::thread_scope_device> *n, unsigned *out) {
  unsigned seen = n->load(cuda::memory_order_relaxed);
  while (!n->compare_exchange_weak(seen, seen + 1, cuda::memory_order_acq_rel, cuda::memory_order_relaxed)) {
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
