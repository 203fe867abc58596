// args: --blockDim=8 --gridDim=1
// C names that are KPL keywords, and shadowing in nested scopes, are renamed.
__global__ void k(int *out) {
  int threads = 2;
  int x = threadIdx.x;
  if (x > 1) {
    int x = 5;
    threads += x;
  }
  { int x = 7; threads += x; }
  out[threadIdx.x] = threads + x;
}
