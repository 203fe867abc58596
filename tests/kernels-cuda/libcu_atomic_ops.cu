//pass
//--blockDim=64 --gridDim=2
//
// libcu++'s atomics at device scope, each operation and order: objects in global memory,
// references to plain elements, an alias and a cast of a plain pointer. Atomics never race
// with each other at device scope, so the kernel is race-free; every value it leaves is
// the same whatever order the atomics take (difftest compares them with a device).
// `compare_exchange_weak` is in `libcu_cas_weak.cu`.
#include <cuda/atomic>

using counter_t = cuda::atomic<unsigned int, cuda::thread_scope_device>;

__device__ int bump(counter_t *c) { return c->fetch_add(1u, cuda::memory_order_acq_rel); }

__global__ void ops(counter_t *c, int *plain, float *sums, int *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  c[0].fetch_add(2u, cuda::memory_order_relaxed);
  c[1].fetch_sub(1u);
  c[2].fetch_and(~t);
  c[3].fetch_or(t);
  c[4].fetch_xor(t, cuda::memory_order_release);
  c[5].fetch_min(t);
  c[6].fetch_max(t, cuda::memory_order_seq_cst);
  c[7].exchange(5u);
  c[8].store(9u, cuda::memory_order_release);
  c[9]++;
  c[10] += 3u;
  unsigned seen = c[11].load(cuda::memory_order_acquire);
  unsigned expected = 0;
  // One thread swaps 0 for 7 (if the input holds 0); every other finds 7, or what it held.
  bool swapped = c[11].compare_exchange_strong(expected, 7u, cuda::memory_order_acq_rel, cuda::memory_order_acquire);
  cuda::atomic_ref<int, cuda::thread_scope_device> r(plain[0]);
  r.fetch_add(1, cuda::memory_order_relaxed);
  cuda::atomic_ref<float, cuda::thread_scope_device>(sums[t % 4]).fetch_add(0.5f);
  ((counter_t *)plain)[1].fetch_max(t);
  reinterpret_cast<counter_t *>(plain + 2)->fetch_add(1u);
  bump(&c[13]);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
  out[t] = (swapped || expected == 7u || seen != 0u) ? 1 : 0;
}
