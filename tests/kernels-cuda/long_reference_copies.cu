//pass
//--blockDim=64 --gridDim=1

// A `const` reference bound to a 64-bit value that is no object is a copy of both words,
// as a parameter and as a local (`long long`, `auto`). Before, the copy read as 0.

#include <assert.h>

__device__ long long plus(const long long &x, long long d) {
  return x + d;
}

__global__ void shift(long long *big) {
  long long b = big[threadIdx.x];
  const long long &v = b + 2;
  const auto &w = b + (1LL << 40);
  assert(v - b == 2);
  assert(w - b == (1LL << 40));
  assert(plus(b + 3, 1) - b == 4);
  big[threadIdx.x] = v;
}
