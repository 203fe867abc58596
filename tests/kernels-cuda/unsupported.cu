//xfail:CLANG_ERROR
//--blockDim=32 --gridDim=1
//not supported

__global__ void k(int *a) {
  if (threadIdx.x == 0) goto done;
  a[threadIdx.x] = 1;
done:
  return;
}
