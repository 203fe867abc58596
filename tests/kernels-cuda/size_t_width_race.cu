//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[1] --pointer-bitwidth=64
//write-write race on A\[0\]

// With 64-bit pointers (every CUDA GPU; kpl's default outside GPUVerify's test format),
// `(size_t)0 - 1` has its high bits set: the even threads all write A[0]. With GPUVerify's
// 32-bit `size_t` the shift gives 0 and nothing is written (size_t_width_32.cu).
__global__ void k(int *A) {
  size_t x = (size_t)(threadIdx.x % 2) - 1;
  if (x >> 32) A[0] = threadIdx.x;
  __assert(sizeof(size_t) == 8 && sizeof(int *) == 8);
}
