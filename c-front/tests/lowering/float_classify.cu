// args: --blockDim=8 --gridDim=1
// isnan, isinf, isfinite, isnormal and signbit test the float's bits.
__global__ void k(float *a, int *out) {
  float x = a[threadIdx.x];
  out[threadIdx.x] = isnan(x) + isinf(x) + isfinite(x) + isnormal(x) + signbit(x);
}
