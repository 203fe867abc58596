//pass
//--blockDim=32 --gridDim=1 --warp-sync=32

// hb: race --warp-sync=32
// A branch-ordering race (BARRACUDA): in a lock-step warp the two sides of a diverged
// branch run one after the other in an order the hardware does not promise, so the read
// on one side and the write on the other are unordered. SDV's warp-sync mode runs the
// `then` side first and calls it safe; happens-before does not.

__global__ void order(int *out) {
  __shared__ int s[1];
  if (threadIdx.x == 0) {
    s[0] = 1;
  } else {
    out[threadIdx.x] = s[0];
  }
}
