// args: --blockDim=32 --gridDim=1
// A call of overloads of one arity that no overload matches exactly is refused (an
// unsigned `threadIdx.x` matches neither `int` nor `float` exactly: C++ calls it
// ambiguous), never a silent choice of one body.
__device__ int f(int x) { return x + 1; }
__device__ float f(float x) { return x * 2.0f; }

__global__ void k(int *a) {
  a[threadIdx.x] = f(threadIdx.x);
}
