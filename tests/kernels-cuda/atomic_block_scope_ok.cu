//pass
//--blockDim=64 --gridDim=4
//
// `atomicAdd_block` into each block's own histogram (global memory), and into a shared
// one: every element's atomics come from one block, so they never race.

__global__ void histogram(int *hist, const int *keys) {
  __shared__ int local[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd_block(&local[keys[i] & 15], 1);
  atomicAdd_block(&hist[blockIdx.x * 16 + (keys[i] & 15)], 1);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd_system(&hist[64 + threadIdx.x], local[threadIdx.x]);
}
