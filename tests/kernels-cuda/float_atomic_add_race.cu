//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//race

// Thread 0 reads the sum the others add to with float atomics and no barrier between:
// an atomic and a plain access of one element race.

__global__ void sum_and_peek(const float *in, float *sum, float *out) {
  atomicAdd(sum, in[threadIdx.x]);
  if (threadIdx.x == 0) {
    out[0] = sum[0];
  }
}
