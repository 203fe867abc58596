//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//assertion

// CUDA's device-side `assert` (<assert.h>) is an assertion: it fails for thread 63. The
// `printf` beside it is evaluated for its reads and prints nothing; `clock()` is any time.
#include <assert.h>
#include <stdio.h>

__global__ void k(const int *in, long long *times) {
  clock_t start = clock();
  printf("thread %d reads %d\n", threadIdx.x, in[threadIdx.x]);
  assert(threadIdx.x < 63);
  if (threadIdx.x == 0)
    times[blockIdx.x] = clock64() - start;
}
