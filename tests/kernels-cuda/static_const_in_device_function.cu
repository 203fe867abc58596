//pass
//--blockDim=[64] --gridDim=[2]

// `static const` with an initialiser never changes: a constant, usable as an array size.
__device__ int f(int x) {
  static const int N = 32;
  __shared__ int s[N];
  s[threadIdx.x % N] = x;
  return N;
}

__global__ void k(int *A) {
  A[blockIdx.x * blockDim.x + threadIdx.x] = f(1);
}
