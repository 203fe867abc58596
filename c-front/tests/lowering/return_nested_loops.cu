// args: --blockDim=32
// A `return` in an inner loop leaves every loop around it: the outer loop's body checks
// the flag after the inner loop even where nothing follows it there.
__global__ void k(int *a) {
  for (int i = 0; i < 2; i++) {
    __syncthreads();
    for (int j = 0; j < 2; j++) {
      if (threadIdx.x == 0) return;
    }
  }
}
