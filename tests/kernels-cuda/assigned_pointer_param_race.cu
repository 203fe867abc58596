//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//possible write-write race
/* The device function points its parameter at another array when asked: then every
   thread writes `other[0]`, with different values. */

__device__ void put(int *p, int *other, int redirect, int v) {
  if (redirect) {
    p = other;
  }
  p[redirect ? 0 : threadIdx.x] = v;
}

__global__ void k(int *a, int *b, int redirect) {
  put(a, b, redirect, threadIdx.x);
}
