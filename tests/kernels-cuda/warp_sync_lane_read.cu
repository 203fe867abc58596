//pass
//--warp-sync=32 --blockDim=32 --gridDim=1 --equality-abstraction

// Reads of an array no lane writes in between give one value.
__global__ void k(int *A, int *B) {
  int y = A[threadIdx.x];
  B[threadIdx.x] = y;
  int x = A[threadIdx.x];
  __assert(x == y);
}
