// args: --blockDim=16
// 64-bit integers are refused, not truncated.
#include <stdint.h>
__global__ void k(uint64_t *a) { a[threadIdx.x] = 1; }
