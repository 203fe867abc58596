//pass
//--blockDim=64 --gridDim=2 --no-inline
//calls of `index_of` using only the contract

// Each call of `index_of` uses only its contract: a distinct index in [0, 128) for
// distinct global ids. Its body is checked once, on its own, against the contract.
__device__ unsigned index_of(unsigned g) {
  __requires(g < 128);
  __requires(__distinct_int(g));
  __ensures(__return_val_int() < 128);
  __ensures(__distinct_int(__return_val_int()));
  unsigned r = (g * 5) % 128;
  return r;
}

__global__ void k(int *a, int *b) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = index_of(g);
  a[i] = g;
  unsigned j = index_of(g);
  b[j] = a[i] + 1;
}
