// args: --blockDim=32 --gridDim=1
// `<math_constants.h>` is a system header kpl reads as empty, but its constants are
// defined where it is included (kpl's `double` is its `float`); a file's own definition
// of one comes first.
#define CUDART_ONE_F 2.0f
#include <math_constants.h>

__global__ void k(float *out) {
  out[threadIdx.x] = CUDART_PI_F * CUDART_ONE_F + (float)CUDART_SQRT_2PI;
}
