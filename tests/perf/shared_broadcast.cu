// perf: --blockDim=64 --gridDim=1
// Every lane reads one word: a broadcast, no conflict. Two words in one bank are.
__global__ void k(int *out, int i) {
  __shared__ int s[64];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  int a = s[0];
  int b = s[(threadIdx.x % 2) * 32]; // expect: bank_conflict 2
  out[threadIdx.x] = a + b;
}
