// args: --blockDim=16
// <stdint.h>'s exact-width types have their widths (a file's own typedef of one is
// ignored); sizeof knows them.
#include <stdint.h>
typedef unsigned int uint32_t;
__global__ void k(uint32_t *a, int32_t *b, uint8_t *c, int16_t *d) {
  a[threadIdx.x] = (uint32_t)-1 / 2;
  b[threadIdx.x] = (int32_t)-8 / 2;
  c[threadIdx.x] = (uint8_t)300;
  d[threadIdx.x] = sizeof(int16_t) + sizeof(uint64_t);
}
