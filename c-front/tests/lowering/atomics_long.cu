// args: --blockDim=8 --gridDim=1
// Atomics on 64-bit integers become KPL's 64-bit atomics (`add64` ...) on the element's
// two words, operands and old value as word pairs; min and max are signed on `long long`.
__global__ void k(unsigned long long *u, long long *s) {
  unsigned long long before = atomicAdd(&u[threadIdx.x], 1ULL);
  atomicMax(&s[0], (long long)threadIdx.x - 4);
  atomicCAS(u, before, 5ULL);
  atomicExch(&u[1], 0xFFFFFFFF00000001ULL);
}
