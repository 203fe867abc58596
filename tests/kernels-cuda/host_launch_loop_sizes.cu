//xfail:NOT_ALL_VERIFIED
//
//launch at line 19: grid 8, block 32\): verified
//launch at line 19: grid 4, block 64\): verified
//launch at line 19: grid 2, block 128\): race
//
// A benchmark's launches, as llm.c's `dev/cuda` programs make them: each block size of a
// constant array in turn, the grid from a `ceil_div` helper, once directly and once through
// a forwarding wrapper. Each size is a launch of its own; lanes 64 apart write one element,
// so only the block of 128 races.
template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }

__global__ void fold(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[blockIdx.x * 64 + threadIdx.x % 64] = threadIdx.x;
}
void run(int *d, int n, const int block_size) {
  const int grid_size = ceil_div(n, block_size);
  fold<<<grid_size, block_size>>>(d, n);
}
template <class Kernel, class... Args>
float bench(int repeats, Kernel kernel, Args &&...args) {
  for (int i = 0; i < repeats; i++) {
    kernel(std::forward<Args>(args)...);
  }
  return 0.0f;
}
int main(int argc, char **argv) {
  int n = 256;
  int *d;
  cudaMalloc(&d, 1024 * sizeof(int));
  int block_sizes[] = {32, 64, 128};
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    run(d, n, block_size);
  }
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    float ms = bench(10, run, d, n, block_size);
  }
  return 0;
}
