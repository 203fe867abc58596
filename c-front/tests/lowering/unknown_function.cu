// args: --blockDim=8 --gridDim=1
__global__ void k(float *a) { a[threadIdx.x] = frobnicate(a[threadIdx.x]); }
