//xfail:NOT_ALL_VERIFIED
//--warp-sync=32 --blockDim=32 --gridDim=1 --equality-abstraction

// In lock step a lane sees another lane's write at once: lane 5's write to A[0] changes
// what thread 0 reads, though thread 0 does not run it.
__global__ void k(int *A) {
  int y = A[0];
  if (threadIdx.x == 5) A[0] = y + 1;
  int x = A[0];
  __assert(x == y);
}
