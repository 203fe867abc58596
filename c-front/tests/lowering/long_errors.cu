// args: --blockDim=32
// What 64-bit integers are not taken in: an atomic with no 64-bit form (division by a
// variable is taken, `long_div.rs`; conversions to and from floats are exact within 32
// bits, arbitrary beyond). Each names its place.
__global__ void k(long *a, float *f, unsigned long long *c, int d) {
  long x = a[threadIdx.x] / d;
  f[threadIdx.x] = (float)x;
  atomicInc(c, 1);
}
