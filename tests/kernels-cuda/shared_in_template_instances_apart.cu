//pass
//--blockDim=[64] --gridDim=[1]

// Each template instance is a function of its own, with its own `buf`: `reduce<float>`
// and `reduce<int>` do not share one. Calls of one instance are separated by barriers.
template <typename T>
__device__ T reduce(T val) {
  __shared__ T buf[64];
  buf[threadIdx.x] = val;
  __syncthreads();
  T r = buf[(threadIdx.x + 1) % 64];
  __syncthreads();
  return r;
}

__global__ void k(float *out, int *o2) {
  out[threadIdx.x] = reduce<float>(1.0f) + reduce<float>((float)threadIdx.x);
  o2[threadIdx.x] = reduce<int>(threadIdx.x);
}
