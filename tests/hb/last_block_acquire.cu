//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=4

// hb: ok --input=count.json
// `last_block.cu` with a fence after the ticket too: the atomic between two fences both
// acquires and releases, so the last block's reads happen after every partial's write.

__global__ void last(int *partial, unsigned int *count, int *out) {
  __shared__ bool amLast;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x + 1;
    __threadfence();
    unsigned int ticket = atomicInc(count, gridDim.x);
    __threadfence();
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
