// args: --blockDim=32 --gridDim=1
// A `return` in the kernel: the rest runs only in the threads that did not return.
__global__ void k(int *out) {
  int t = threadIdx.x;
  if (t >= 16) return;
  out[t] = 1;
  for (int i = 0; i < 4; i++) {
    if (i == t) return;
    out[t + 16] = i;
  }
  out[t] = 2;
}
