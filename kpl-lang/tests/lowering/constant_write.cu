// args: --blockDim=8 --gridDim=1
// Constant memory is read-only.
__constant__ int table[4];
__global__ void k(int *out) {
  table[threadIdx.x % 4] = out[threadIdx.x];
}
