//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=4

// hb: race --input=count.json
// The last-block pattern of the CUDA SDK's threadFenceReduction: each block publishes its
// partial result, fences, and takes a ticket; the block with the last ticket reads every
// partial. The fence before the atomic makes it a release, but nothing after the ticket
// acquires: under the happens-before rules the last block's reads race with the other
// blocks' writes (`last_block_acquire.cu` adds the missing fence).

__global__ void last(int *partial, unsigned int *count, int *out) {
  __shared__ bool amLast;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x + 1;
    __threadfence();
    unsigned int ticket = atomicInc(count, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < gridDim.x; i++) {
      sum += partial[i];
    }
    out[0] = sum;
  }
}
