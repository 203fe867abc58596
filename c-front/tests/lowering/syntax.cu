// args: --blockDim=8 --gridDim=1
__global__ void k(int *a) {
  a[threadIdx.x] = 1
  a[0] = ;
}
