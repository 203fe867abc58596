//pass
//--blockDim=[64] --gridDim=[1]

// The same helper with a barrier between the two calls: the one `shared` array is reused
// safely.
__device__ float blockReduceSum(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x % 32;
  int wid = threadIdx.x / 32;
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / 32) ? shared[lane] : 0;
  return val;
}

__global__ void k(float *out, float *in) {
  float a = blockReduceSum(in[threadIdx.x]);
  __syncthreads();
  float b = blockReduceSum(a);
  out[threadIdx.x] = b;
}
