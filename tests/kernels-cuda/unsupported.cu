//xfail:CLANG_ERROR
//--blockDim=32 --gridDim=1
//not supported

__global__ void k(int *a) {
  a[threadIdx.x] = 1;
  asm("bar.sync 0;");
}
