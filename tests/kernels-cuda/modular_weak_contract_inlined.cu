//pass
//--blockDim=64 --gridDim=1

// modular_weak_contract.cu without --no-inline: the call of `bump` is inlined, so the
// caller sees the body's result, 4, and the kernel verifies.
__device__ int bump(int x) {
  __requires(x < 1000);
  __ensures(__return_val_int() > x);
  return x + 1;
}

__global__ void k(int *out) {
  int b = bump(3);
  out[threadIdx.x] = b;
  __assert(b > 3);
  __assert(b == 4);
}
