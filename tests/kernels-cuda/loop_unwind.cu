//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1 --loop-unwind=2 --no-benign-tolerance
//possible write-write race on B

// GPUVerify's --loop-unwind=N: loops unrolled twice, the race in the first iteration is
// found without any invariant (a kernel with none ends inconclusive, never verified).
extern "C" {
__global__ void k(float *A) {
  __shared__ float B[256];
  for (int i = 0; i < 10; i++) {
    B[i] = threadIdx.x;
  }
}
}
