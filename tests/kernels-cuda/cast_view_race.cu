//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//possible write-write race

// Thread t writes float t and, through an `int *` view of the same array, word t + 1:
// the element its neighbour writes as a float.

__global__ void overlap(float *f) {
  unsigned int t = threadIdx.x;
  f[t] = 1.0f;
  ((int *)f)[t + 1] = 0;
}
