// perf: --blockDim=32 --gridDim=2
// A thread's own array (`acc[4]`, indexed by a variable, so kept in per-thread memory) is
// neither shared nor global memory: no finding on it. The strided global read is one.
__global__ void k(const float *in, float *out, int n) {
  float acc[4] = {0.0f};
  for (int i = 0; i < 4; i++) {
    acc[(i + threadIdx.x) % 4] += in[threadIdx.x * 4 + i]; // expect: uncoalesced 16/4
  }
  out[blockIdx.x * 32 + threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}
