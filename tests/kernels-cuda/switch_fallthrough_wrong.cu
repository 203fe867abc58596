//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
//error: this assertion might not hold

// Case 2 falls through into case 3, so r is 21 there, not 20.
__global__ void k(int *a) {
  int r = 0;
  switch (threadIdx.x % 4) {
  case 2:
    r = 20;
  case 3:
    r += 1;
    break;
  }
  __assert(threadIdx.x % 4 != 2 || r == 20);
  a[blockIdx.x * blockDim.x + threadIdx.x] = r;
}
