//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: ok --input=flag.json
// Message passing between blocks with a device-scope fence (`__threadfence()`) on each
// side: the store of the flag releases, the load that sees it acquires, and the read of
// `data` happens after its write. SDV, which has no fences, calls the flag a race.

__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      data[0] = 42;
      __threadfence();
      flag[0] = 1;
    } else {
      while (flag[0] != 1) {
      }
      __threadfence();
      out[0] = data[0];
    }
  }
}
