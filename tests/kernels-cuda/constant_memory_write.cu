//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//confirmed attempt to modify constant memory
//possible attempt to modify constant memory
/* A write to `__constant__` memory is reported where it can happen (as GPUVerify does),
   not refused: here only when `flag` is set, which the witness shows. */
__constant__ int coeffs[64];

__global__ void scale(float *x, int flag) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= coeffs[threadIdx.x];
  if (flag == 7) {
    coeffs[threadIdx.x] = 0;
  }
}
