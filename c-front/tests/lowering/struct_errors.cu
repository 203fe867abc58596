// args: --blockDim=8 --gridDim=1
// What kpl refuses about structs says what and where.
struct P { int x; int a[2]; int *q; };
union U { int i; float f; };
struct Empty {};
__global__ void k(P *ps, int n) {
  P v = ps[0];
  int y = v.a[n];
  int z = v.nope;
  int w = ps[0];
  int u = ps[0].q[1];
  union U u2;
  struct Empty e;
}
