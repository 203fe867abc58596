//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: race --input=flag.json
// The producer releases, but the consumer reads `data` with no fence after its load of the
// flag: nothing acquires, so the read may see a stale value.

__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      data[0] = 42;
      __threadfence();
      flag[0] = 1;
    } else {
      while (flag[0] != 1) {
      }
      out[0] = data[0];
    }
  }
}
