//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//possible write-write race

// Each thread copies two ints from its own pair of inputs to its own index: thread t
// writes element t + 1, which thread t + 1 writes too, with another value.

__global__ void copy2(const int *in, int *a) {
  unsigned int t = threadIdx.x;
  memcpy(&a[t], &in[2 * t], 2 * sizeof(int));
}
