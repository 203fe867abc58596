// args: --blockDim=32
// kpl does not deduce template arguments: a call that leaves them out is an error.
template <typename T>
__device__ T twice(T x) {
  return x + x;
}

__global__ void k(int *a) {
  a[threadIdx.x] = twice(a[threadIdx.x]);
}
