// args: --blockDim=16
// `<limits.h>`/`<float.h>` constants are built in.
#include <limits.h>
__global__ void k(int *a, unsigned *b, float *c) {
  a[threadIdx.x] = INT_MAX;
  a[threadIdx.x + 16] = INT_MIN;
  b[threadIdx.x] = UINT_MAX;
  c[threadIdx.x] = FLT_MAX;
}
