// args: --blockDim=16
// An array of uint64_t: two words per element (low, high).
#include <stdint.h>
__global__ void k(uint64_t *a) { a[threadIdx.x] = 1; }
