// args: --blockDim=16 --gridDim=2 -Iinclude/sys
// `#include "f"` beside the file (then `-I`), `<f>` from `-I` only, system headers empty,
// include guards and `#pragma once` (types.h is included twice).
#include <stdio.h>
#include "cuda_runtime.h"
#include "include/params.h"
#include "include/types.h"
#include <angle.h>

__global__ void k(value_t *a, int *t) {
  a[threadIdx.x] = FROM_ANGLE;
  t[threadIdx.x] = tile_of(threadIdx.x);
}
