// args: --blockDim=8 --gridDim=1
typedef int myint;
__global__ void k(int *a) { a[threadIdx.x] = 1; }
