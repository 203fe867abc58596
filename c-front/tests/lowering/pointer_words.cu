// args: --blockDim=8 --gridDim=1
// Pointers stored in memory are opaque words (the array's tag plus the offset): stored,
// copied between structs in memory, kept in a `T **` parameter; never followed.
struct N { int *p; int *ps[2]; };
__global__ void k(int *a, N *from, N *to, int **t) {
  to[threadIdx.x].p = from[threadIdx.x].p;
  to[threadIdx.x].ps[1] = a + threadIdx.x;
  t[threadIdx.x] = a;
}
