//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//race

// A reference bound to one element for every thread: each thread writes it.

__global__ void count(unsigned *hist, const unsigned char *data) {
  unsigned &bin = hist[data[0] % 4];
  bin = threadIdx.x;
}
