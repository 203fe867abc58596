//xfail:NOT_ALL_VERIFIED
//--blockDim=[16] --gridDim=[1] --k-induction-depth=2
//race on A

// A race in the third iteration of a loop, under 2-induction: found in the step, or the
// join after the base case, never verified.
__global__ void k(int *A) {
  for (int i = 0; i < 4; i++) {
    A[i == 2 ? 0 : threadIdx.x] = threadIdx.x;
    __syncthreads();
  }
}
