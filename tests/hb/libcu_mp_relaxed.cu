//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: race --input=flag.json
// The same message passing with relaxed orders: the flag is atomic, but nothing orders
// the write of `data` before its read (the bug BARRACUDA and ScoRD look for). SDV, which has no
// fences, calls `data` a race.
#include <cuda/atomic>

__global__ void mp(int *data, cuda::atomic<int, cuda::thread_scope_device> *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      data[0] = 42;
      flag->store(1, cuda::memory_order_relaxed);
    } else {
      while (flag->load(cuda::memory_order_relaxed) != 1) {
      }
      out[0] = data[0];
    }
  }
}
