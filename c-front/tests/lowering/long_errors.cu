// args: --blockDim=32
// What 64-bit integers are not taken in: division by a variable (constants are: powers of two,
// or an odd part below 65536), conversions to and from floats, an atomic with no 64-bit form.
// Each names its place.
__global__ void k(long *a, float *f, unsigned long long *c, int d) {
  long x = a[threadIdx.x] / d;
  f[threadIdx.x] = (float)x;
  atomicInc(c, 1);
}
