// args: --blockDim=8 --gridDim=1
// Constant memory is read-only: a write to it is a defect where it can happen (GPUVerify's
// "possible attempt to modify constant memory"), an assertion that fails; a write through
// a `const` pointer is a C error (const_write.cu).
__constant__ int table[4];
__global__ void k(int *out) {
  table[threadIdx.x % 4] = out[threadIdx.x];
}
