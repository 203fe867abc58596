//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: ok --input=flag.json
// One device-scope fence is enough (BARRACUDA's litmus tests: membar.gl in either thread
// gave sequentially consistent results on both GPUs): the producer fences at device
// scope, the consumer only at block scope.

__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      data[0] = 42;
      __threadfence();
      flag[0] = 1;
    } else {
      while (flag[0] != 1) {
      }
      __threadfence_block();
      out[0] = data[0];
    }
  }
}
