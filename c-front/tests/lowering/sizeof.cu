// args: --blockDim=8 --gridDim=1
__global__ void k(int *a) { a[threadIdx.x] = sizeof(int); }
