//pass
//--blockDim=[8] --gridDim=[2]

// A scalar `static` with a constant initialiser that nothing assigns keeps that value in
// every launch: read as the constant it is.
__device__ int scaled(int x) {
  static int scale = 4;
  return x * scale;
}

__global__ void k(int *A) {
  __assert(scaled(1) == 4);
  A[blockIdx.x * blockDim.x + threadIdx.x] = scaled(threadIdx.x);
}
