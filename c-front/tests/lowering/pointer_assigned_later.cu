// args: --blockDim=64 --gridDim=1
// A pointer declared without an initialiser gets its array from its first assignment
// (later assignments must keep that array); a struct pointer steps by whole structs.
struct S { int a; int b; };
__global__ void k(int *A, struct S *ss) {
  int *p;
  p = A + 1;
  p[threadIdx.x] = 0;
  p = A + 2;
  struct S *s;
  s = ss + threadIdx.x;
  s->b = 1;
  s++;
  s[0].a = 2;
}
