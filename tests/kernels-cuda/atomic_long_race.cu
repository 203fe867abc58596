//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//race

// Thread 0 reads the high word of a 64-bit counter that the other threads add to with
// 64-bit atomics, with no barrier in between: the atomic's second word races with the read.

__global__ void count(unsigned long long *counter, unsigned *high) {
  atomicAdd(counter, 1ULL << 32);
  if (threadIdx.x == 0) {
    high[0] = ((unsigned *)counter)[1];
  }
}
