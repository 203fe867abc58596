// args: --blockDim=16
// A header that includes itself without a guard ends at the nesting limit.
#include "include/self.h"
__global__ void k(int *a) { a[threadIdx.x] = 1; }
