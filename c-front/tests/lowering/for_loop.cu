// args: --blockDim=32 --gridDim=1
// `for` becomes `while`; `continue` runs the step first.
__global__ void k(int *out) {
  int s = 0;
  for (int i = 0; i < 10; i++) {
    if (i == threadIdx.x) continue;
    s += i;
  }
  for (int i = 0; i < 2; ++i) s -= 1;
  out[threadIdx.x] = s;
}
