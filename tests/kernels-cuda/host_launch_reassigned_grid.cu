//xfail:NOT_ALL_VERIFIED
//
//launch at line 22: grid 2, block 32\): verified
//launch at line 24: grid 8, block 32\): race
//
// Host code as llm.c's launchers write it: one local `num_blocks` assigned again between
// two launches (each launch sees the last assignment before it), sizes read by a
// compound assignment (`ix /= n`), by <math.h> (`sqrtf(n)`) and by a C library of NVIDIA's
// (cuBLAS) without being changed. Threads 64 apart scale one element: the first launch
// has 64 threads, the second 256, which race.
#include <math.h>

template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i % 64] = 2.0f * a[i % 64];
}

void run(float *a, int n) {
  int num_blocks = ceil_div(n, 128);
  scale<<<num_blocks, 32>>>(a, n);
  num_blocks = ceil_div(n, 32);
  scale<<<num_blocks, 32>>>(a, n);
  float r = sqrtf(n);
  int ix = 1000;
  ix /= n;
  (void)r;
}

int main() {
  float *a;
  int n = 256;
  cudaMalloc(&a, n * sizeof(float));
  run(a, n);
  return 0;
}
