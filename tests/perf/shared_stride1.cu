// perf: --blockDim=64 --gridDim=2
// Stride-1 shared accesses: each lane its own bank (no finding anywhere).
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = out[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
