// args: --blockDim=4 --gridDim=1
__global__ void k(float a[][], int n, float b[4][n]) { a[0][threadIdx.x] = b[0][threadIdx.x]; }
