// args: --blockDim=64 --gridDim=1
// A pointer variable whose array kpl cannot determine is an error that says so.
__global__ void k(int *A, int *E, int n) {
  int *p;
  int *q = A;
  q = E;
  int *r = A;
  int y = *(r++);
  const int *c = A;
  c[0] = 1;
}
