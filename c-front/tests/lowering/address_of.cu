// args: --blockDim=8 --gridDim=1
__global__ void k(int *a) { int x = 1; a[threadIdx.x] = *(&x); }
