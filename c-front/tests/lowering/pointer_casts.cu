// args: --blockDim=32
// Pointer casts that keep the bytes of each word view the same array through another
// element type (offsets in words carry over); reinterpreting a float's bits is no
// computation at all. `*&y` is `y`.
struct pair { int a; float b; };

__global__ void k(float *f, long long *l, pair *p, float *g) {
  unsigned int t = threadIdx.x;
  unsigned int *bits = (unsigned int *)f;
  bits[t] = bits[t] ^ 0x80000000u;
  ((int *)l)[2 * t + 1] = 0;
  *(float *)&p[t] = 1.0f;
  float4 v = ((float4 *)g)[t];
  ((int *)g)[4 * t] = __float_as_int(v.y);
  atomicCAS((int *)(f + 32), 0, __float_as_int(2.0f));
  int y = 0;
  *&y = 5;
  ((int *)g)[4 * t + 1] = y;
}
