//pass
//--blockDim=64 --gridDim=4

// Per-thread arrays and a local passed by address: each thread's private memory is its
// own (no races), and what it wrote it reads back.
__device__ void bump(int *p) { *p = *p + 1; }

__global__ void k(int *out) {
  int hist[4] = { 0, 0, 0, 0 };
  int n = 0;
  hist[threadIdx.x % 4] = 7;
  bump(&n);
  bump(&n);
  __assert(n == 2);
  __assert(hist[threadIdx.x % 4] == 7);
  out[blockIdx.x * blockDim.x + threadIdx.x] = hist[1] + n;
}
