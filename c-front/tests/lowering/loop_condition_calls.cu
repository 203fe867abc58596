// args: --blockDim=16
// Calls whose lowering needs statements (an arbitrary math result, a temporary, an atomic)
// in a loop condition or after `&&`: evaluated at each test, and only when reached.
__global__ void k(int *a, int *count, int n) {
  for (int i = 1; i <= __log2f(16); i++) {
    a[threadIdx.x] = i;
  }
  for (int j = 0; j < __popc(n); j++) {
    a[threadIdx.x] += j;
  }
  if (n > 3 && atomicAdd(count, 1) > 0) {
    a[threadIdx.x] = 0;
  }
}
