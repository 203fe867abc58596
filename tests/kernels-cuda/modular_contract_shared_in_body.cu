//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[1] --no-inline
//race on s\[0\]

// A `__shared__` array declared in a device function is one per block (not the call's
// own): a body that writes it has an effect other threads see, so its calls are inlined
// under `--no-inline`, and the race between the callers is found.
__device__ int h(int x) {
  __ensures(__return_val_int() == x);
  __shared__ int s[32];
  s[0] = x;
  return x;
}

__global__ void k(int *A) {
  A[threadIdx.x] = h(threadIdx.x);
}
