// args: --blockDim=8 --gridDim=1
// A function pointer is a word naming a function of the file (1, 2, ... in order; 0 is
// NULL); a call through one dispatches on it, and any other value is an assertion failure.
__device__ int twice(int x) { return 2 * x; }
__device__ int half(int x) { return x / 2; }
typedef int (*op_t)(int);
__global__ void k(int *a, op_t given) {
  op_t f = threadIdx.x < 4 ? twice : &half;
  a[threadIdx.x] = (*f)(a[threadIdx.x]) + given(1);
}
