// args: --blockDim=8 --gridDim=1 -DSCALE=3 -DUSE_FAST
#include <cuda.h>
#include "cuda_runtime.h"
#define IDX(x, y) ((y) * WIDTH + (x))
#define WIDTH 8
#define SQ(a) ((a) * (a))
#if defined(USE_FAST) && SCALE > 2
#define FACTOR SCALE
#elif defined(OTHER)
#define FACTOR 100
#else
#define FACTOR 1
#endif
#ifndef MISSING
#define MISSING 0
#endif
#undef WIDTH
#define WIDTH 4
__global__ void k(int *out) {
  out[IDX(threadIdx.x, 1)] = SQ(threadIdx.x + 1) * FACTOR + MISSING;
}
