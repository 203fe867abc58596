//pass
//--blockDim=32 --gridDim=1

// Each half-warp synchronises on its own with a mask naming its lanes, then reads what its
// own half wrote: ordered. (Reading the other half's would race: its mask does not name
// those lanes.)

__global__ void halves(const int *in, int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  if (t < 16) {
    __syncwarp(0x0000ffff);
    out[t] = s[15 - t];
  } else {
    __syncwarp(0xffff0000);
    out[t] = s[47 - t];
  }
}
