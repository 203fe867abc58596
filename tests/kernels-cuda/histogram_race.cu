//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=4
//write-write race

// A histogram without atomics: threads with equal values collide on one bin.
__global__ void histogram(const int *data, int *bins) {
  int v = data[blockIdx.x * blockDim.x + threadIdx.x];
  bins[v & 15] = bins[v & 15] + 1;
}
