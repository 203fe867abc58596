//pass
//--blockDim=32 --gridDim=2

// A device function returning a pointer into the buffer it is given (or NULL for a
// negative row, which the kernel never asks for).
__device__ int *row(int *base, int r, int width) {
  if (r < 0)
    return NULL;
  return base + r * width;
}

__global__ void k(int *m) {
  int *p = row(m, blockIdx.x, 32);
  if (p != NULL)
    p[threadIdx.x] = threadIdx.x;
}
