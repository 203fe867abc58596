// args: --blockDim=8 --gridDim=1
// A condition with side effects is evaluated at the top of each iteration.
__global__ void k(int *out) {
  int i = 0;
  int n = 0;
  while (i++ < 4) n += 2;
  out[threadIdx.x] = n + i;
}
