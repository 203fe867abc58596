// args: --blockDim=4 --gridDim=1
// `__trap()` ends the launch with an error: an assertion that fails where it is reached.
// `__nv_bfloat162` is a pair of 16-bit floats with members `x` and `y`.
#include <cuda_bf16.h>

__global__ void k(__nv_bfloat162 *pairs, __nv_bfloat16 *out, int n) {
  if (n < 0) {
    __trap();
  }
  __nv_bfloat162 p = pairs[threadIdx.x];
  out[2 * threadIdx.x] = p.y;
  out[2 * threadIdx.x + 1] = p.x;
}
