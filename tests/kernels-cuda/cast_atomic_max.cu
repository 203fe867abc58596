//pass
//--blockDim=64 --gridDim=2

// The usual float atomic maximum: a compare-and-swap loop on the float's bits through an
// `int *` view (its first read an atomic too: a plain read would race with the others'
// compare-and-swaps). Atomics never race with each other.

__device__ float atomic_max_float(float *address, float val) {
  int *as_int = (int *)address;
  int old = atomicAdd(as_int, 0);
  int assumed;
  do {
    assumed = old;
    old = atomicCAS(as_int, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void max_kernel(const float *in, float *result) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomic_max_float(result, in[i]);
}
