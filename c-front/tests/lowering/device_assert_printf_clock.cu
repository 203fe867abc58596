// args: --blockDim=16 --gridDim=1
// CUDA's device `assert` is an assertion; `printf` evaluates its arguments; `clock()` and
// `clock64()` are any 64-bit value.
__global__ void k(int *A, long long *T) {
  clock_t t = clock();
  printf("%d\n", A[threadIdx.x]);
  assert(A[threadIdx.x] >= 0);
  T[threadIdx.x] = clock64() - t;
}
