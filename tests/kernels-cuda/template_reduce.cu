//pass
//--blockDim=128 --gridDim=8

// A reduction written as CUDA samples write it: a kernel template whose block size is a
// template argument, launched from host code (skipped, with a note) as reduce<128, int>.
template <unsigned int blockSize, typename T>
__global__ void reduce(T *g_idata, T *g_odata) {
  __shared__ T sdata[blockSize];
  unsigned int tid = threadIdx.x;
  sdata[tid] = g_idata[blockIdx.x * blockSize + tid];
  __syncthreads();
  for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 1024 * sizeof(int));
  cudaMalloc(&out, 8 * sizeof(int));
  reduce<128, int><<<8, 128>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
