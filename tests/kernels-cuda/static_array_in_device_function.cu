//xfail:NOT_ALL_VERIFIED
//--blockDim=[64] --gridDim=[2]
//confirmed write-write race on arr\[0\]

// A `static` array in a device function: one copy in global memory, shared by every
// call and every thread of every block.
__device__ int f(int x) {
  static int arr[4];
  arr[0] = x;
  return arr[0];
}

__global__ void k(int *A) {
  A[blockIdx.x * blockDim.x + threadIdx.x] = f(threadIdx.x);
}
