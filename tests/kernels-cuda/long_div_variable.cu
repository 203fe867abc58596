//pass
//--blockDim=[32] --gridDim=[4]

// 64-bit division and remainder by a variable (`long_div.rs`): a thread's row and column
// of a 64-bit linear index, by a width the host passes. Exact: the identity holds.
__global__ void k(int *A, long long w) {
  long long width = (w & 63) + 1;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long row = i / width;
  long long col = i % width;
  __assert(row * width + col == i);
  __assert(col >= 0 && col < width);
  A[i] = (int)(row + col);
}
