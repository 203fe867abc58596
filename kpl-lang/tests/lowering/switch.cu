// args: --blockDim=8 --gridDim=1
__global__ void k(int *a) {
  switch (threadIdx.x) { case 0: a[0] = 1; }
}
