// args: --blockDim=8
// A pointer read before it is assigned an array names no array kpl can follow.
__global__ void k(int *A) {
  int *p;
  if (threadIdx.x > 2) p = A;
  p[threadIdx.x] = 1;
}
