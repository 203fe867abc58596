// args: --blockDim=16 --gridDim=1
// A function that returns a reference and does more than `return` one place is refused, as
// is an argument with an effect where its parameter is used twice.
__device__ float &pick(float *a, int i) {
  int j = i + 1;
  return a[j];
}

__device__ float &twice(float *a, int i) { return a[i * i]; }

__global__ void k(float *out) {
  int t = threadIdx.x;
  pick(out, t) = 1.0f;
  twice(out, t++) = 2.0f;
}
