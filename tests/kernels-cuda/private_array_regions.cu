//pass
//--blockDim=64 --gridDim=2
//
// Per-thread tiles as tuned GEMM kernels write them (`threadResults[TM]`, indexed by
// loop counters): each thread's accesses stay in its own region, so the private arrays
// need no race checks and the kernel is verified.
#define TM 8
__global__ void k(const float *a, float *c) {
  float threadResults[TM] = {0.0f};
  float regM[TM];
  int base = (blockIdx.x * 64 + threadIdx.x) * TM;
  for (int i = 0; i < TM; i++) {
    regM[i] = a[base + i];
  }
  for (int r = 0; r < TM; r++) {
    for (int i = 0; i < TM; i++) {
      threadResults[i] += regM[(i + r) % TM];
    }
  }
  for (int i = 0; i < TM; i++) {
    c[base + i] = threadResults[i];
  }
}
