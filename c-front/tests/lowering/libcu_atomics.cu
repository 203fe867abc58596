// args: --blockDim=8 --gridDim=2
// libcu++'s atomics: KPL's atomic of the object's scope, with a fence of that scope before
// an operation whose order releases and after one whose order acquires; a load is
// `cas(x, 0, 0)`, a store an exchange; compare-exchange writes the value it found back.
#include <cuda/atomic>
__global__ void k(cuda::atomic<int, cuda::thread_scope_block> *b, int *p) {
  int v = b[blockIdx.x].load(cuda::memory_order_acquire);
  b[blockIdx.x].store(v + 1, cuda::memory_order_release);
  cuda::atomic_ref<int, cuda::thread_scope_device> r(p[0]);
  r.fetch_add(1, cuda::memory_order_relaxed);
  int e = 0;
  r.compare_exchange_strong(e, 1);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
}
