// args: --blockDim=32 --check-function=absent
// Checking a function the file does not define is an error, not a guess.
__global__ void k(int *a) {
  a[threadIdx.x] = 0;
}
