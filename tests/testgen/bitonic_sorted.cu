// testgen: --blockDim=4 --gridDim=1
// GKLEE's bitonic sort with its postcondition (the values end sorted), checked on every
// path test generation explores. It holds for 4 threads; with 6 it does not, because the
// kernel is only right when the block size is a power of two (GKLEE's finding).
#define NUM 8
__shared__ unsigned shared[NUM];

__global__ void BitonicKernel(unsigned *values) {
  unsigned int tid = threadIdx.x;
  shared[tid] = values[tid];
  __syncthreads();
  for (unsigned k = 2; k <= blockDim.x; k *= 2)
    for (unsigned j = k / 2; j > 0; j /= 2) {
      unsigned ixj = tid ^ j;
      if (ixj > tid && ixj < blockDim.x) {
        if ((tid & k) == 0) {
          if (shared[tid] > shared[ixj]) {
            unsigned tmp = shared[tid]; shared[tid] = shared[ixj]; shared[ixj] = tmp;
          }
        } else {
          if (shared[tid] < shared[ixj]) {
            unsigned tmp = shared[tid]; shared[tid] = shared[ixj]; shared[ixj] = tmp;
          }
        }
      }
      __syncthreads();
    }
  if (tid > 0)
    __assert(shared[tid - 1] <= shared[tid]);
  values[tid] = shared[tid];
}
