// args: --blockDim=8 --gridDim=1
// Structs: an array of structs is a word array (element i, field at word o: i * words + o);
// a struct variable is a local per word; `->`, nested structs, array fields, copies.
struct P { int x; float y; };
struct Q { struct P p; int a[2]; };
__global__ void k(struct Q *qs, P *ps, int n) {
  struct P v = ps[threadIdx.x];
  v.x += 1;
  ps[threadIdx.x] = v;
  qs[threadIdx.x].p.y = v.y;
  qs[threadIdx.x].a[1] = n;
  (ps + 1)->x = 2;
  struct P w = { 3, 1.0f };
  Q q = { w, { 4, 5 } };
  qs[0] = q;
}
