// args: --blockDim=64 --gridDim=1
// Two `extern __shared__` arrays of element types of different sizes would share one
// memory at two layouts: refused.
__global__ void k(float *out) {
  extern __shared__ float f[];
  extern __shared__ short s[];
  f[threadIdx.x] = s[threadIdx.x];
}
