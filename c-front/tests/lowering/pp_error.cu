// args: --blockDim=8 --gridDim=1
#ifndef N
#error N must be defined
#endif
__global__ void k(int *a) { a[threadIdx.x] = 1; }
