// args: --blockDim=16
// An error in a header is reported in that header, at its line and column.
#include "include/broken.h"
__global__ void k(int *a) { a[threadIdx.x] = broken(1); }
