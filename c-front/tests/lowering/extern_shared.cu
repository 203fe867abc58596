// args: --blockDim=64 --gridDim=2
// `extern __shared__` arrays are CUDA's dynamic shared memory, sized at the launch: one
// unsized `shared` array, which every such declaration (of a type of one size) names.
extern __shared__ float fbuf[];
__device__ void stage(int t, float v) {
  extern __shared__ float buf[];
  buf[t] = v;
}
__global__ void k(float *out) {
  extern __shared__ unsigned int ubuf[];
  stage(threadIdx.x, out[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = fbuf[(threadIdx.x + 1) % blockDim.x] + ubuf[0];
}
