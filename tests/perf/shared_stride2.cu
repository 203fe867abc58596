// perf: --blockDim=64 --gridDim=1
// Stride 2: lanes t and t+16 meet in one bank (2-way).
__global__ void k(int *out) {
  __shared__ int s[128];
  s[threadIdx.x] = out[threadIdx.x];
  s[threadIdx.x + 64] = 0;
  __syncthreads();
  out[threadIdx.x] = s[2 * threadIdx.x]; // expect: bank_conflict 2
}
