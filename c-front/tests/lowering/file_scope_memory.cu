// args: --blockDim=8 --gridDim=1
// File-scope `__constant__` and `__device__` variables are global arrays whose contents
// the host sets (arbitrary; CUDA's host may overwrite an initialiser); constant memory is
// read-only.
__constant__ int table[4] = { 1, 2, 3, 4 };
__device__ float acc[8];
__device__ int counter;
__global__ void k(int *out) {
  acc[threadIdx.x] = table[threadIdx.x % 4];
  if (threadIdx.x == 0) counter = 1;
  out[threadIdx.x] = counter;
}
