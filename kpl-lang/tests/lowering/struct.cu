// args: --blockDim=8 --gridDim=1
struct P { int x; };
__global__ void k(int *a) { a[0] = 1; }
