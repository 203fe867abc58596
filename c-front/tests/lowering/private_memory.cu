// args: --blockDim=[4,2] --gridDim=2
// Per-thread arrays and locals whose address is taken live in a global array with one
// region per thread (linear thread id times the region's size).
__device__ void set(int *p, int v) { *p = v; }
__global__ void k(int *out) {
  int acc[3] = { 1, 2 };
  int x;
  set(&x, 5);
  acc[2] = x;
  out[threadIdx.x] = acc[threadIdx.y] + x;
}
