// args: --blockDim=64
// C++ reference parameters: a variable is the caller's own (`c`, `v`), an element of
// memory is fixed at the call with its index computed once (`ps[t]`, `out[t + 64]`), and a
// `const` reference to a value is a copy (`out[t] * 2.0f`). `float(x)` is a cast.
struct P { float x; float y; };
__device__ void bump(int &c, float3 &v, const float &s, P &p) {
  c = c + 1;
  v.x = v.x * s;
  p.y = s;
}
__device__ void swap(float &a, float &b) { float t = a; a = b; b = t; }
__global__ void k(float *out, float3 *vs, P *ps, int *cnt) {
  int t = threadIdx.x;
  int c = 0;
  float3 v = vs[t];
  bump(c, v, out[t] * float(2), ps[t]);
  swap(out[t], out[t + 64]);
  vs[t + 64] = v;
  cnt[t + 64] = c;
}
