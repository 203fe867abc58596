// args: --blockDim=8 --gridDim=1
#if 1
__global__ void k(int *a) { a[threadIdx.x] = 1; }
