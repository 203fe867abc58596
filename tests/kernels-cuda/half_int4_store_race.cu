//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//confirmed write-write race on h
//
// An `int4` store covers 8 `__half`s (16 bytes, 2 each): threads 4 elements apart
// overlap. An array of 16-bit floats seen through a pointer cast keeps C's layout.
#include <cuda_fp16.h>

__global__ void fill(__half *h) {
  int i = threadIdx.x * 4;
  *reinterpret_cast<int4 *>(h + i) = make_int4(threadIdx.x, 0, 0, 0);
}
