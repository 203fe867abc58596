//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//possible read-write race on s\[

// syncwarp_masks.cu, but each half reads what the other half wrote: its `__syncwarp` does
// not name those lanes, so nothing orders the write before the read. (The interpreter
// orders a warp barrier's lanes with their whole warp, so only the verifier sees this one.)

__global__ void halves(const int *in, int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  if (t < 16) {
    __syncwarp(0x0000ffff);
  } else {
    __syncwarp(0xffff0000);
  }
  out[t] = s[31 - t];
}
