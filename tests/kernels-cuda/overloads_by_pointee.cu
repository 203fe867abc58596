//pass
//--blockDim=64 --gridDim=1

// `add` overloaded for pointers to `float` and to `int`, as llm.c's `atomicAddX` is for
// its element types: a call takes the overload whose pointer parameter points to what
// its argument points to (`&a[i]`, `a + i`, `a`). The `int *` overload writes the thread's
// own element; the `float *` one (which a wrong choice would call) writes element 0 from
// every thread.
__device__ void add(float *p, float v) { p[0] = v + (float)threadIdx.x; }
__device__ void add(int *p, float v) { p[threadIdx.x] = (int)v; }

__global__ void k(int *a, int *b, int *c) {
  add(&a[0], 1.0f);
  add(b + 0, 2.0f);
  add(c, 3.0f);
}
