//xfail:NOT_ALL_VERIFIED
//--blockDim=[8] --gridDim=[1]
//write-write race on B\[0\]

// The even threads' pointer is where `A` starts: `p - A` is 0 there and they all write
// B[0]. (`p - q` was read as `p >= q`, which is 1 for every thread: this was verified.)
__global__ void k(int *A, int *B) {
  int *p = A + threadIdx.x % 2;
  int d = p - A;
  if (d == 0) B[0] = threadIdx.x;
}
