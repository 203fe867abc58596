//pass
//--blockDim=64 --gridDim=4

// Per-block 64-bit sums and a 64-bit maximum: `atomicAdd`, `atomicMax` and `atomicCAS` on
// `unsigned long long` act on both words of the element at once, and atomics never race
// with each other.

__global__ void sums(const unsigned *in, unsigned long long *total, long long *peak, unsigned long long *first) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long before = atomicAdd(&total[blockIdx.x], (unsigned long long)in[i] << 20);
  atomicMax(peak, (long long)in[i] - 1000);
  atomicCAS(&first[blockIdx.x], 0ULL, before + 1);
}
