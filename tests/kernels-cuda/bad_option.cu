//xfail:COMMAND_LINE_ERROR
//--blockDim=32 --gridDim=1 --frobnicate

__global__ void k(int *a) { a[threadIdx.x] = 1; }
