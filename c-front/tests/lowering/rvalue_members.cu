// args: --blockDim=32 --gridDim=1
// A member of a struct or vector value that is no object (a call's result, an operation's,
// a vector literal's) is taken from the value; its other words are still evaluated, so
// their reads are checked.
struct Pair { float lo, hi; };
__device__ Pair split(float v) { Pair p = {v * 0.5f, v * 2.0f}; return p; }

__global__ void k(float *out, const float2 *v) {
  float a = split(out[threadIdx.x]).hi;
  float b = (v[threadIdx.x] + v[threadIdx.x + 1]).y;
  float2 c = make_float4(a, b, 1.0f, 2.0f).zw;
  out[threadIdx.x] = a + b + c.x + make_float2(3.0f, 4.0f).x;
}
