//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//error: this assertion might not hold

// switch_break_in_if.cu with a wrong claim: the even threads that break out of case 0
// never reach case 1's `x += 2`.
__global__ void k(int *a, int mode) {
  int t = threadIdx.x;
  int x = 0;
  switch (mode & 1) {
  case 0:
    if (t % 2 == 0)
      break;
    x = 1;
  case 1:
    x += 2;
    break;
  }
  __assert(x >= 2);
  a[t] = x;
}
