//pass
//--blockDim=[32] --gridDim=[1] --pointer-bitwidth=32

// The same kernel with GPUVerify's 32-bit pointers (its default, and kpl's for files in
// GPUVerify's test format): `size_t` is 32 bits, the shift by 32 gives 0.
__global__ void k(int *A) {
  size_t x = (size_t)(threadIdx.x % 2) - 1;
  if (x >> 32) A[0] = threadIdx.x;
  __assert(sizeof(size_t) == 4 && sizeof(int *) == 4);
}
