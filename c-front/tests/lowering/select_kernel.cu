// args: --blockDim=8 --gridDim=1 --kernel=second
__global__ void first(int *a) { a[threadIdx.x] = 1; }
__global__ void second(int *b) { b[threadIdx.x] = 2; }
