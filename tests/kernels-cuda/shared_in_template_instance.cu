//xfail:NOT_ALL_VERIFIED
//--blockDim=[64] --gridDim=[1]
//confirmed read-write race on buf

// A template instance called twice through another function, from two call sites: one
// `buf` per block for `reduce<float>`, so the second call's write races with the first
// call's read of the neighbour's element.
template <typename T>
__device__ T reduce(T val) {
  __shared__ T buf[64];
  buf[threadIdx.x] = val;
  __syncthreads();
  return buf[(threadIdx.x + 1) % 64];
}

__device__ float twice(float v) { return reduce<float>(v) + reduce<float>(v + 1.0f); }

__global__ void k(float *out) {
  out[threadIdx.x] = twice((float)threadIdx.x);
}
