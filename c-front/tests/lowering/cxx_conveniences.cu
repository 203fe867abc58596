// args: --blockDim=16 --gridDim=1
// `constexpr`, `static_assert`, named casts and default arguments.
constexpr int N = 4;
static_assert(N > 0, "N");
__device__ int add(int a, int b = N) { return a + b; }
__global__ void k(int *A, float *F, int unused = 0) {
  A[threadIdx.x] = add(static_cast<int>(F[threadIdx.x])) + add(1, 2);
}
