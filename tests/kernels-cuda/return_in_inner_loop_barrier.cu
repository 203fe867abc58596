//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//barrier divergence

// Thread 0 returns from inside the inner loop of the first outer iteration; the others
// go on to the barrier of the second: barrier divergence. (A returned thread once went
// on with the outer loop and met the barrier too, and kpl said verified.)
__global__ void k(int *a) {
  for (int i = 0; i < 2; i++) {
    __syncthreads();
    for (int j = 0; j < 2; j++) {
      if (threadIdx.x == 0) return;
    }
  }
}
