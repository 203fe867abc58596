// args: --blockDim=32 --gridDim=1
// Overloads of one arity are chosen between by the arguments' types: the one overload
// whose parameter types are exactly the arguments' (variables, elements, literals, casts
// and arithmetic on them), as C++ chooses an exact match.
__device__ int f(int x) { return x + 1; }
__device__ float f(float x) { return x * 2.0f; }

__global__ void k(int *a, float *b) {
  a[threadIdx.x] = f((int)threadIdx.x - 1);
  b[threadIdx.x] = f(b[threadIdx.x] + 1.0f);
  int i = a[threadIdx.x] / 2;
  b[threadIdx.x + 32] = f(i);
}
