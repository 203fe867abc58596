// args: --blockDim=64 --gridDim=2
// Scalars become params, pointers global arrays; an assigned param gets a local copy.
__global__ void k(int n, float a, const float *x, float *__restrict__ y, unsigned m) {
  n = n / 2;
  y[threadIdx.x] = a * x[threadIdx.x] + (float)(n + m);
}
