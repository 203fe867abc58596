//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//error: possible write-write race on buf\[

// A step through a pointer to a pointer that moves it one element short: the two halves
// written through the caller's pointers overlap by a thread.

__device__ void step(int **p, int n) { *p += n; }

__global__ void k(int *buf) {
  int *lo = buf;
  int *hi = buf;
  step(&hi, blockDim.x - 1);
  lo[threadIdx.x] = 1;
  hi[threadIdx.x] = 2;
}
