//xfail:CLANG_ERROR
//--blockDim=32 --gridDim=1
//not supported

__global__ void k(int *a) {
  switch (threadIdx.x) { case 0: a[0] = 1; break; default: break; }
}
