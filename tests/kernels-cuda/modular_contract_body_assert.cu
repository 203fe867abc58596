//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1 --no-inline
//modular_contract_body_assert.cu:13:3: error: this assertion might not hold
//found checking `scale` on its own \(--no-inline\)

// A call that uses only the contract does not run the body, so the body's assertions
// are checked where the function is checked on its own: for every argument its
// __requires allows. scale(7) fails its assertion; the kernel never calls it so, but
// the contract allows it.
__device__ int scale(int x) {
  __requires(x >= 0 && x < 100);
  __ensures(__return_val_int() >= 0);
  __assert(x != 7);
  return 3 * x;
}

__global__ void k(int *out) {
  out[threadIdx.x] = scale(threadIdx.x % 4);
}
