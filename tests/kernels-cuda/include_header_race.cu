//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
//write-write race
//tiles.cuh:6:3:

// The race is in a device function of an included header: it is reported there.
#include "headers/tiles.cuh"

__global__ void k(int *out) {
  store_own(out, 1);
  store_neighbour(out, 2);
}
