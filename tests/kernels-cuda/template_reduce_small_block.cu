//xfail:NOT_ALL_VERIFIED
//--blockDim=128 --gridDim=8 --kernel=reduce<64,int>
//error: possible array out-of-bounds access on array sdata

// template_reduce.cu's kernel, instantiated (by --kernel) with a block size smaller than
// the launch's: thread 64 writes past the shared array.
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
