//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: race --input=flag.json
// The same message passing with a flag of block scope: its release and acquire order
// nothing between blocks, and its atomics of two blocks race too (ScoRD). SDV, which has no
// fences, calls `data` a race.
#include <cuda/atomic>

__global__ void mp(int *data, cuda::atomic<int, cuda::thread_scope_block> *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      data[0] = 42;
      flag->store(1, cuda::memory_order_release);
    } else {
      while (flag->load(cuda::memory_order_acquire) != 1) {
      }
      out[0] = data[0];
    }
  }
}
