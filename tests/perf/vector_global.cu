// perf: --blockDim=64 --gridDim=1
// A `float4` element is one 16-byte access per lane, not four word accesses: the copy to
// `out` is coalesced (16 sectors for a warp's 512 bytes), the read of every other `float4`
// touches 32 sectors where 16 would do. `--all-inputs` still checks each word on its own;
// the replay, which costs the access at its width, does not confirm the copy's.
__global__ void k(float *out, const float *in) {
  int i = threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(in)[2 * i]; // expect: uncoalesced 32/16
  reinterpret_cast<float4 *>(out)[i] = v; // expect: all-inputs uncoalesced (possible)
}
