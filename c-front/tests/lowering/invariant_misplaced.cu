// args: --blockDim=16
// An invariant last in a loop body belongs to no loop: an error, never dropped.
__global__ void k(int *p) {
  for (unsigned i = 0; i < 100; i++) {
    p[16 * i + threadIdx.x] = threadIdx.x;
    __invariant(i < 100);
  }
}
