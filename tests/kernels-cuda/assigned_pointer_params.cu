//pass
//--blockDim=64 --gridDim=4
/* C parameters are variables: a kernel moves its pointer to its block's slice, and a
   device function moves its own copy of a pointer (the caller's is unchanged). */

__device__ void fill_from(int *p, int start, int v) {
  p += start;
  p[threadIdx.x] = v;
}

__device__ void fill_twice(float *p, float v) {
  for (int k = 0; k < 2; k++) {
    p[threadIdx.x] = v;
    p = p + blockDim.x * gridDim.x;
  }
}

__global__ void slices(int *out, float *f) {
  out = out + blockIdx.x * blockDim.x;
  fill_from(out, 0, threadIdx.x);
  f += blockIdx.x * blockDim.x;
  fill_twice(f, 1.0f);
}
