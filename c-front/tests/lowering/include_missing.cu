// args: --blockDim=16
// A quoted header that is neither beside the file nor in an `-I` directory is an error
// (a system header written with quotes is not).
#include "cuda.h"
#include "no_such_header.h"
__global__ void k(int *a) { a[threadIdx.x] = 1; }
