// args: --blockDim=8 --gridDim=1
// `sizeof e` of variables, their elements and what pointers point at (not evaluated).
struct P { int a; char b; double c; };
__constant__ float coeffs[5][3];
__global__ void k(unsigned *out, P *ps, float4 *v) {
  __shared__ short s2[4][8];
  double d = 1.0;
  char cs[10];
  P p;
  int i = 0;
  out[0] = sizeof(s2) + 1000 * sizeof(s2[1]) + 100000 * sizeof s2[1][2];
  out[1] = sizeof d + sizeof cs + sizeof(p) + sizeof(*ps) + sizeof(ps[0]);
  out[2] = sizeof(coeffs) / sizeof(coeffs[0]) + sizeof(v[0]) + sizeof(out);
  out[3] = sizeof(out[i++]) + i;
  out[4] = sizeof(p.c) + 100 * sizeof ps->b + 1000 * sizeof(ps[1].a);
  int b[sizeof(d) / 2];
  b[threadIdx.x % 4] = 1;
  out[5] = sizeof(b) + b[0];
}
