// args: --blockDim=8
// A local read before it is assigned has an indeterminate value in C; kpl's locals start at
// 0, so such a local gets an arbitrary value (`havoc`) where it is declared. Assigned on
// every path needs none.
__global__ void k(int *A) {
  int x;
  int y;
  int z;
  __shared__ int s;
  if (threadIdx.x < 4) { y = 1; } else { y = 2; }
  A[threadIdx.x] = x + y + s;
  if (threadIdx.x < 2) z = 3;
  A[threadIdx.x] = z;
}
