// args: --blockDim=8 --gridDim=1
__device__ int f(int n) { return n > 0 ? f(n - 1) : 0; }
__global__ void k(int *a) { a[threadIdx.x] = f(3); }
