//pass
//--blockDim=64 --gridDim=4

// A weighted histogram: CUDA's `atomicAdd` on floats (and on doubles) adds as floats, and
// atomics never race with each other. The counts are exact whatever the order (whole
// numbers far below 2^24), so `kpl run` and a GPU agree on them.

__global__ void weighted_histogram(const int *bins, float *hist, double *total) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = bins[i] & 15;
  float before = atomicAdd(&hist[b], 1.0f);
  atomicAdd(total, 2.0);
}
