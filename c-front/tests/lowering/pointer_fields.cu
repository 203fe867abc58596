// args: --blockDim=8 --gridDim=2
// A struct variable's pointer field is a pointer variable of its own: assigned, moved,
// copied with the struct, NULL, or given several arrays. A `void *` field is copied with
// its struct and never gone through.
struct V { int *d; int n; };
struct W { void *raw; int pitch; };
__device__ void put(V v, int x) { v.d += x; v.d[0] = x; }
__global__ void k(int *out, int *other, V q, W w) {
  W w2 = w;
  out[0] = w2.pitch;
  V a = {NULL, 1};
  V b;
  b.d = out + blockIdx.x * 8;
  put(b, threadIdx.x);
  V c = b;
  c.d++;
  if (threadIdx.x == 0) a.d = other;
  if (a.d) a.d[1] = c.d[threadIdx.x - 1];
  q.d = out;
  q.d[threadIdx.x] = q.n;
}
