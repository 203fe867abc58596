// args: --blockDim=8 --gridDim=1
// A `T **` parameter given `&q` of a pointer variable: `*p` and `p[0]` are `q`, assigned
// and moved in the callee and passed on to another `T **` parameter.
__device__ void step(int **p) { *p += 2; }
__device__ void twice(int **p) { step(p); p[0][0] = 1; }
__global__ void k(int *a) {
  int *q = a + threadIdx.x;
  twice(&q);
  q[0] = 2;
}
