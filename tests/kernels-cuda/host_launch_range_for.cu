//xfail:NOT_ALL_VERIFIED
//
//launch at line 15: grid 4, block 32\): verified
//launch at line 15: grid 1, block 128\): race
//
// A range-`for` over constant sizes: each is a launch of its own. Lanes 64 apart write
// one element with different values, so the block of 128 races.
__global__ void fold(int *a) {
  a[blockIdx.x * 64 + threadIdx.x % 64] = threadIdx.x;
}
int main() {
  int *d;
  cudaMalloc(&d, 1024 * sizeof(int));
  for (const int block : {32, 128}) {
    fold<<<128 / block, block>>>(d);
  }
  return 0;
}
