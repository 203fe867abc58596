// args: --blockDim=32 --gridDim=4
// GPUVerify's annotations: preconditions, assertions, assumptions, invariants, contracts.
__device__ int half(int v) {
  __requires(v >= 0);
  __ensures(__return_val_int() <= v);
  return v / 2;
}
__global__ void k(int *out, int n) {
  __requires(n > 0 & n <= 1024);
  __assume(threadIdx.x < 32);
  int i = 0;
  __invariant(i <= n);
  while (i < n) {
    __invariant(__implies(i > 0, i <= n));
    i++;
  }
  __assert(i == n);
  out[blockIdx.x * 32 + threadIdx.x] = half(i);
}
