// args: --blockDim=8 --gridDim=1
__global__ void k1(int *a) { a[threadIdx.x] = 1; }
__global__ void k2(int *a) { a[threadIdx.x] = 2; }
