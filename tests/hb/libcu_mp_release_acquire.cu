//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: ok --input=flag.json
// Message passing between blocks through a libcu++ flag: a release store and an acquire
// load at device scope order the write of `data` before its read. SDV, which has no
// fences, calls `data` a race.
#include <cuda/atomic>

__global__ void mp(int *data, cuda::atomic<int, cuda::thread_scope_device> *flag, int *out) {
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
