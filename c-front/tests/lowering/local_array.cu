// args: --blockDim=8 --gridDim=1
__global__ void k(int *a) {
  int tmp[4];
  tmp[0] = 1;
  a[threadIdx.x] = tmp[0];
}
