// args: --blockDim=8 --gridDim=1
// A pointer read from memory is not followed: kpl says so where it is used.
struct N { int *p; int *ps[2]; };
__global__ void k(int *a, N *from, int **t, int ***u) {
  int *r = t[0];
  int v = from[0].ps[0][1];
  int w = t[1][2];
}
