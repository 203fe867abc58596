//pass
//--blockDim=32 --gridDim=2

// A `break` inside an `if` ends the switch for the threads that take it: even threads
// leave case 0 at once; odd ones fall through into case 1.
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
  __assert(x == 0 || x == 2 || x == 3);
  __assert(__implies((mode & 1) == 0 && t % 2 == 0, x == 0));
  __assert(__implies((mode & 1) == 0 && t % 2 == 1, x == 3));
  a[blockIdx.x * 32 + t] = x;
}
