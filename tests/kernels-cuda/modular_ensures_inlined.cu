//pass
//--blockDim=32 --gridDim=2

// Under (GPUVerify's modular mode) a function's contract must hold for every
// argument its __requires allows: halve(1) is 0. The calls here (8 and 64) are fine, so
// without the kernel verifies (modular_ensures_inlined.cu).
__device__ int halve(int a) {
  __requires(a > 0);
  __ensures(__return_val_int() > 0);
  return a / 2;
}

__global__ void k(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = halve(8) + halve(64);
}
