//pass
//--blockDim=32 --gridDim=1 --warp-sync=32

// hb: ok --warp-sync=32
// hb: race
// The warp-synchronous tail of a reduction: no barrier, each step reads what other lanes
// wrote the step before. Correct when a warp runs in lock step (GPUVerify's --warp-sync,
// BARRACUDA's endi ordering); a race under independent thread scheduling (Volta and later).

__global__ void reduce(int *in, int *out) {
  __shared__ volatile int s[64];
  unsigned int t = threadIdx.x;
  s[t] = in[t];
  s[t + 32] = 0;
  if (t < 16) {
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0) {
    out[0] = s[0];
  }
}
