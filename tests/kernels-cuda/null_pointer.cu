//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2
//error: possible null pointer access

// `out` stays NULL for the threads of block 1, which still write through it.
__global__ void k(int *a) {
  int *out = NULL;
  if (blockIdx.x == 0)
    out = a;
  out[threadIdx.x] = threadIdx.x;
}
