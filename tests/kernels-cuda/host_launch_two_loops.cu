//xfail:NOT_ALL_VERIFIED
//
//launch at line 18: grid 32, block 32\): verified
//launch at line 18: grid 16, block 64\): verified
//launch at line 18: grid 8, block 128\): verified
//launch at line 18: grid 4, block 256\): verified
//launch at line 18: grid 2, block 512\): verified
//launch at line 18: grid 1, block 1024\): race
//
// A benchmark program's host code as llm.c writes it: a check loop and a timing loop over
// the same six block sizes (36 combinations of the two loops' locals, six launches), the
// grid from a helper given a cast (`(long) block_size`), and the sizes also passed, inside
// expressions, to a host template kpl does not read (`check(d, n * 2)`): none changes them.
// Lanes 512 apart write one element: only the block of 1024 races.
template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }
__global__ void fill(int *a, long n) { long i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[blockIdx.x * 512 + threadIdx.x % 512] = threadIdx.x; }
void run(int *d, long n, int block_size) {
  fill<<<ceil_div(n, (long) block_size), block_size>>>(d, n);
}
template <class T> void check(T *d, long count) { (void)d; (void)count; }
int main() {
  long n = 1024;
  int *d;
  int block_sizes[] = {32, 64, 128, 256, 512, 1024};
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    run(d, n, block_size);
    check(d, n * 2);
  }
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    run(d, n, block_size);
  }
  return 0;
}
