// args: --blockDim=32 --gridDim=1
// An operation kpl cannot choose an operator function for is refused, never read with
// another body or kpl's own operator: two overloads fit an unsigned operand only through
// conversions, and a struct has no operator of kpl's.
struct V { int a, b; };
__device__ V operator*(V v, int s) { V r; r.a = v.a * s; r.b = v.b * s; return r; }
__device__ V operator*(V v, float s) { V r; r.a = v.a; r.b = v.b; return r; }

__global__ void k(V *p) {
  V x = p[threadIdx.x];
  p[threadIdx.x] = x * threadIdx.x;
  p[threadIdx.x + 32] = x + x;
}
