//pass
//--blockDim=32 --gridDim=1

// CUDA's `__ffs` (1-based position of the lowest set bit, 0 for 0), `__brev` (bits
// reversed) and `__popc`, proved for every input word.

__global__ void bits(const unsigned *in, unsigned *out) {
  unsigned x = in[threadIdx.x];
  __assert(__ffs(0) == 0 && __ffs(8) == 4 && __ffs(0x80000000u) == 32);
  __assert(__brev(1u) == 0x80000000u && __brev(0x0000ff00u) == 0x00ff0000u);
  __assert(__brev(__brev(x)) == x);
  __assert(__popc(__brev(x)) == __popc(x));
  __assert(x == 0 || (((x >> (__ffs(x) - 1)) & 1u) == 1u && (x & ((1u << (__ffs(x) - 1)) - 1u)) == 0u));
  out[threadIdx.x] = __ffs(x) + __brev(x);
}
