// args: --blockDim=8 --gridDim=1
// `do` checks its condition after the body, also on `continue`.
__global__ void k(int *out) {
  int i = 0;
  do {
    i++;
    if (i == 3) continue;
    out[threadIdx.x] = i;
  } while (i < 5);
}
