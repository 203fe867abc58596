// args: --blockDim=8 --gridDim=1
// CUDA vector types: make_float2, components, by-value parameters and results of
// device functions.
__device__ float2 swap(float2 v) { return make_float2(v.y, v.x); }
__global__ void k(float2 *p, int4 c) {
  float2 v = swap(p[threadIdx.x]);
  v.x = v.x + c.w;
  p[threadIdx.x] = v;
}
