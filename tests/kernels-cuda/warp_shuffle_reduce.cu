//pass
//--blockDim=128 --gridDim=4
/* A block's sum the CUDA 9 way: each warp sums with __shfl_down_sync, warp leaders meet
   in shared memory, and warp 0 sums their sums. The second reduction runs under
   `wid == 0`, which is uniform in a warp, so no lane of its full mask is missing. */

__device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__global__ void blockReduce(const float *in, float *out) {
  __shared__ float partial[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  float sum = in[blockIdx.x * blockDim.x + threadIdx.x];
  sum = warpReduceSum(sum);
  if (lane == 0) partial[wid] = sum;
  __syncthreads();
  sum = (threadIdx.x < blockDim.x / warpSize) ? partial[lane] : 0;
  if (wid == 0) {
    sum = warpReduceSum(sum);
    if (lane == 0) out[blockIdx.x] = sum;
  }
}
