// args: --blockDim=32 --gridDim=1
// A file's functions that overload a built-in's name (helper_math.h's `make_float3(float2,
// float)` and `fminf(float3, float3)`) are called where they fit the arguments; a call they
// cannot take (`make_float3(x, y, z)`, `fminf` of two floats) is the built-in's.
__device__ float3 make_float3(float2 a, float s) { return make_float3(a.x, a.y, s); }
__device__ float3 fminf(float3 a, float3 b) { return make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)); }

__global__ void k(float3 *p, float2 *q, float *r) {
  float3 a = make_float3(q[threadIdx.x], 1.0f);
  float3 b = make_float3(r[threadIdx.x], 2.0f, 3.0f);
  p[threadIdx.x] = fminf(a, b);
  r[threadIdx.x] = fminf(r[threadIdx.x], 0.5f);
}
