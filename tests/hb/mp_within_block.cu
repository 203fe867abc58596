//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1

// hb: ok --input=flag.json
// Message passing between two warps of one block: block-scope fences suffice.

__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    data[0] = 42;
    __threadfence_block();
    flag[0] = 1;
  } else if (threadIdx.x == 32) {
    while (flag[0] != 1) {
    }
    __threadfence_block();
    out[0] = data[0];
  }
}
