//pass
//--blockDim=32 --gridDim=2
/* `sizeof` of variables and their elements: the common `sizeof(a) / sizeof(a[0])` for a
   length, and a byte count turned into elements. */

__global__ void k(float *out, const float *in) {
  __shared__ float tile[32];
  int n = sizeof(tile) / sizeof(tile[0]);
  __assert(n == 32);
  tile[threadIdx.x] = in[blockIdx.x * n + threadIdx.x];
  __syncthreads();
  size_t bytes = n * sizeof *out;
  out[blockIdx.x * (bytes / sizeof(out[0])) + threadIdx.x] = tile[n - 1 - threadIdx.x];
}
