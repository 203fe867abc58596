// args: --blockDim=8
// A function declared without a body: its scalar arguments are evaluated, it has no other
// effect, and its result is arbitrary (`havoc`); pointer arguments are not touched. A call
// of a `noreturn` one is an error if it is reached (`assert false`).
__device__ int ext(int a, int *p);
__device__ void log_it(int a);
__device__ void die(void) __attribute__((noreturn));
__global__ void k(int *A) {
  int v = ext(A[threadIdx.x], A);
  log_it(v + 1);
  A[threadIdx.x] = v;
  if (v < 0) die();
}
