//xfail:NOT_ALL_VERIFIED
//--blockDim=[64] --gridDim=[1]
//confirmed read-write race on shared\[1\]

// The everyday block reduction helper, called twice with no barrier between the calls:
// its `static __shared__` array is one per block, whatever the number of calls (CUDA), so
// call 2's `shared[wid] = val` races with call 1's `shared[lane]` reads.
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
  float b = blockReduceSum(a);
  out[threadIdx.x] = b;
}
