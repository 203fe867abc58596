// args: --blockDim=32 --gridDim=1
// `<cufft.h>` and `<cuComplex.h>` are system headers kpl reads as empty, but their complex
// types are `float2`/`double2` and `<cuComplex.h>`'s arithmetic is defined where they are
// included.
#include <cufft.h>
#include <cuComplex.h>

__global__ void scale(cufftComplex *a, const cuFloatComplex *b, cufftReal s, cuComplex *b2) {
  cuFloatComplex p = cuCmulf(a[threadIdx.x], b[threadIdx.x]);
  a[threadIdx.x] = make_cuFloatComplex(cuCrealf(p) * s, cuCimagf(p) * s);
  b2[threadIdx.x] = cuConjf(b[threadIdx.x]);
}
