// args: --blockDim=8 --gridDim=1
// 5000000000 is a `long` (C99); stored in an int, it keeps its low 32 bits.
__global__ void k(int *a) { a[threadIdx.x] = 5000000000; }
