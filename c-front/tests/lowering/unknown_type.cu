// args: --blockDim=8 --gridDim=1
// A type kpl was never told of (here: one a host file defines before including this
// kernel file) is named as an unknown type, with the way to give it.
__global__ void k(fp *d, int n) {
  d[threadIdx.x] = n;
}
