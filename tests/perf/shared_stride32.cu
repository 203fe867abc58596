// perf: --blockDim=32 --gridDim=1
// Stride 32: every lane of the warp in bank 0 (32-way).
__global__ void k(int *out) {
  __shared__ int s[1024];
  s[threadIdx.x * 32] = out[threadIdx.x]; // expect: bank_conflict 32
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 32] + 1; // expect: bank_conflict 32
}
