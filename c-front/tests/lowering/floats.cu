// args: --blockDim=4 --gridDim=1
// Floats are opaque words: arithmetic, comparisons and conversions become float built-ins.
__global__ void k(float *x, int *y, double d) {
  float f = x[threadIdx.x];
  float g = f * 2.0f - 1.5f / f;
  x[threadIdx.x] = -g;
  y[threadIdx.x] = (int)g + (f < 0.5f);
  x[threadIdx.x + 4] = (float)threadIdx.x + sqrtf(fabsf(f)) + d;
  if (f) y[threadIdx.x + 4] = 1;
}
