//pass
//--blockDim=[8] --gridDim=[1] --pointer-bitwidth=64

// `p - q` of two pointers into one array: the elements between them, a 64-bit signed
// `ptrdiff_t` (negative where `p` is below `q`).
__global__ void k(int *A) {
  int *p = A + threadIdx.x;
  int *q = A + 2;
  long long d = p - q;
  __assert(d == (long long)threadIdx.x - 2);
  __assert(q - p == -d);
  A[threadIdx.x] = (int)d;
}
