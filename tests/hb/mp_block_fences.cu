//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2

// hb: race --input=flag.json
// Message passing between blocks through a flag (BARRACUDA, PLDI 2017, Figure 4) with a
// block-scope fence on each side: a block-scope release and acquire do not synchronise
// different blocks (the K520 showed the non-sequentially-consistent outcome), so the read
// of `data` races with its write. kpl verify (SDV) reports the flag itself.

__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      data[0] = 42;
      __threadfence_block();
      flag[0] = 1;
    } else {
      while (flag[0] != 1) {
      }
      __threadfence_block();
      out[0] = data[0];
    }
  }
}
