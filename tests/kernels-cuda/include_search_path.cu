//pass
//--blockDim=16 --gridDim=4 -Iheaders

// `<config.h>` is found in the `-I` directory; "headers/tiles.cuh" beside this file.
#include <config.h>
#include "headers/tiles.cuh"

__global__ void k(int *out) {
  int i = (blockIdx.x * TILE + threadIdx.x) * ELEMENTS_PER_THREAD;
  out[i] = 1;
  out[i + 1] = 2;
}
