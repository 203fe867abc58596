// args: --blockDim=64 --gridDim=1
// Pointer uses kpl refuses, each with a message (a pointer given a second array, `q = E`, has two targets: pointer_choice.cl).
__global__ void k(int *A, int *E, int n) {
  int *p;
  int *q = A;
  q = E;
  int *r = A;
  int y = *(r++);
  const int *c = A;
  c[0] = 1;
}
