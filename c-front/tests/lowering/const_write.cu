// args: --blockDim=8 --gridDim=1
__global__ void k(const int *a) { a[threadIdx.x] = 1; }
