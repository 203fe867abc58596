// args: --blockDim=8 --gridDim=1
__global__ void k(int *a, int n) { __assert(__uniform_int(n)); a[threadIdx.x] = n; }
