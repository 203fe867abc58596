//xfail:NOT_ALL_VERIFIED
//--blockDim=[8] --gridDim=[1]
//race on scale

// A `static` handed to a reference parameter may be written there: it is the one object
// in global memory, and every thread writes it.
__device__ void set(int &r, int v) { r = v; }

__device__ int f(int x) {
  static int scale = 4;
  set(scale, x);
  return scale;
}

__global__ void k(int *A) {
  A[threadIdx.x] = f(threadIdx.x);
}
