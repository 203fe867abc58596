// perf: --blockDim=32 --gridDim=1
// `float4`s in shared memory: a quarter-warp's 8 lanes are served together (16 bytes
// each, 32 banks), so consecutive `float4`s are conflict-free and every other one is a
// 2-way conflict.
__global__ void k(float *out) {
  __shared__ float4 s[64];
  int i = threadIdx.x;
  s[i] = make_float4(1.0f, 2.0f, 3.0f, 4.0f); // expect: all-inputs bank_conflict (possible)
  __syncthreads();
  float4 v = s[2 * i]; // expect: bank_conflict 2
  reinterpret_cast<float4 *>(out)[i] = v; // expect: all-inputs uncoalesced (possible)
}
