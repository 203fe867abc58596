//pass
//--blockDim=32 --gridDim=1 --kernel-args=k,32

// GPUVerify's --kernel-args: with n = 32 every thread takes the first branch; any smaller
// n makes the others race on A[0].
__global__ void k(int *A, unsigned n) {
  if (threadIdx.x < n) {
    A[threadIdx.x] = 1;
  } else {
    A[0] = threadIdx.x;
  }
}
