//pass
//--blockDim=64 --gridDim=4

// 16-bit floats (`half`, `__half`, `__nv_bfloat16`) are opaque floats, one element per
// word: their conversions and arithmetic give any value, their accesses are exact.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void axpy(const half *x, __half *y, const __nv_bfloat16 *w, float *out, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a * __half2float(x[i]) + __bfloat162float(w[i]);
  y[i] = __float2half(v);
  out[i] = v + (float)sizeof(half);
}
