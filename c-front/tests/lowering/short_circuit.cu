// args: --blockDim=64 --gridDim=1
// A read on the right of && or || happens only when it is needed: it becomes a branch.
__global__ void k(int *out) {
  __shared__ int buf[64];
  int i = threadIdx.x;
  buf[i] = i;
  __syncthreads();
  if (i + 1 < 64 && buf[i + 1] > 0) out[i] = 1;
  if (i == 0 || buf[i - 1] > 2) out[i] = 2;
  int c = i > 0 ? buf[i - 1] : 0;
  if (i < 32 && i > 3) out[i] = c;
}
