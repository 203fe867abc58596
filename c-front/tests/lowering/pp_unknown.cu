// args: --blockDim=8 --gridDim=1
#frobnicate
__global__ void k(int *a) { a[threadIdx.x] = 1; }
