//xfail:CLANG_ERROR
//--blockDim=32 --gridDim=1
//`fetch_mul` is not an operation of libcu\+\+'s atomics that kpl reads
#include <cuda/atomic>

__global__ void k(cuda::atomic<int, cuda::thread_scope_device> *c) {
  // libcu++ has no fetch_mul: kpl says which operations it reads.
  c->fetch_mul(2);
}
