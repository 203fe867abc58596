// args: --blockDim=8 --gridDim=1
// Atomics become KPL's `atomic` statement on the element the pointer names; signed
// elements take the signed min and max; `atomicAdd` on a float adds as floats; a `_block`
// atomic on global memory is of `group` scope (on shared memory it is a device one).
__global__ void k(int *a, unsigned *u, float *f) {
  __shared__ unsigned count;
  int old = atomicAdd(a, 1);
  atomicMin(&a[threadIdx.x], old);
  atomicMax(u + threadIdx.x, 3u);
  unsigned c = atomicInc(&count, 7u);
  atomicCAS(&u[0], c, 5u);
  atomicExch_block(&a[1], 2);
  atomicAdd_block(&count, 1u);
  float before = atomicAdd(&f[threadIdx.x], 0.5f);
}
