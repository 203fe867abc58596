//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: ok --input=lock.json
// A lock across blocks with libcu++: `compare_exchange_strong` with acquire order takes
// it, a release store frees it, and the counter between is ordered. SDV, with no fences,
// calls the counter a race.
#include <cuda/atomic>

__global__ void locked_count(cuda::atomic<int, cuda::thread_scope_device> *lock, int *count) {
  if (threadIdx.x == 0) {
    int expected = 0;
    while (!lock->compare_exchange_strong(expected, 1, cuda::memory_order_acquire, cuda::memory_order_relaxed)) {
      expected = 0;
    }
    count[0] = count[0] + 1;
    lock->store(0, cuda::memory_order_release);
  }
}
