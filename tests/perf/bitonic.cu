// perf: --blockDim=4 --gridDim=1 --warp-size=4
// GKLEE's bitonic sort (PPoPP 2012, Figure 2), swap inlined; 4 threads as in its Table 1,
// with a warp of 4 so that the divergence GKLEE reports is within one warp (it measured
// 60% of barrier intervals divergent; so does `kpl perf` on this input).
#define NUM 4
__shared__ unsigned shared[NUM];

__global__ void BitonicKernel(unsigned *values) {
  unsigned int tid = threadIdx.x;
  shared[tid] = values[tid];
  __syncthreads();
  for (unsigned k = 2; k <= blockDim.x; k *= 2)
    for (unsigned j = k / 2; j > 0; j /= 2) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) { // expect: warp_divergence
        if ((tid & k) == 0) { // expect: warp_divergence
          if (shared[tid] > shared[ixj]) { // expect: warp_divergence
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
  values[tid] = shared[tid];
}
