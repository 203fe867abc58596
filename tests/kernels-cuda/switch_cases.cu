//pass
//--blockDim=64 --gridDim=2

// A switch with fall-through and a default: the assertion pins each case's result.
__global__ void k(int *a) {
  int r = 0;
  switch (threadIdx.x % 4) {
  case 0:
    r = 10;
    break;
  case 1:
  case 2:
    r = 20;
  case 3:
    r += 1;
    break;
  default:
    r = -1;
  }
  __assert(r == 10 || r == 21 || r == 1);
  __assert(threadIdx.x % 4 != 1 || r == 21);
  __assert(threadIdx.x % 4 != 3 || r == 1);
  a[blockIdx.x * blockDim.x + threadIdx.x] = r;
}
