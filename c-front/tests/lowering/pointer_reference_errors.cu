// args: --blockDim=8 --gridDim=1
// What kpl refuses of pointers to pointers says what and where.
__device__ void f(int **p) { if (p) (*p)[0] = 1; }
__device__ void g(int **p) { int *q = *p; }
__global__ void k(int *a) {
  int *x = a;
  f(&x);
  g(&a);
}
