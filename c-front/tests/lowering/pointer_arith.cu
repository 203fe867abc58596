// args: --blockDim=8 --gridDim=1
__global__ void k(int *a) {
  int *p = a + 4;
  p[threadIdx.x] = 1;
}
