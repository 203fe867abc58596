// args: --blockDim=32 --gridDim=1
// C++ operator functions (as CUDA's helper_math.h writes them): `a * b`, `-a`, `a += b` and
// `a == b` on a struct or vector call the file's operator function whose parameter types
// fit the operands (exactly, or a scalar through an arithmetic conversion: `x * 2`). Where
// no operand is a struct or vector, or no operator function fits a vector, kpl's own
// operators apply.
struct Cx { float re, im; };
__device__ Cx operator*(Cx a, Cx b) { Cx r; r.re = a.re * b.re - a.im * b.im; r.im = a.re * b.im + a.im * b.re; return r; }
__device__ Cx operator*(Cx a, float s) { Cx r; r.re = a.re * s; r.im = a.im * s; return r; }
__device__ Cx operator-(Cx a) { Cx r; r.re = -a.re; r.im = -a.im; return r; }
__device__ void operator+=(Cx &a, Cx b) { a.re += b.re; a.im += b.im; }
__device__ bool operator==(Cx a, Cx b) { return a.re == b.re && a.im == b.im; }
__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }

__global__ void k(Cx *p, float2 *q, int *n) {
  Cx x = p[threadIdx.x];
  Cx y = x * x * 2;
  y += -x;
  if (y == x) {
    p[threadIdx.x] = y;
  }
  q[threadIdx.x] = q[threadIdx.x] + q[threadIdx.x] - q[threadIdx.x];
  n[threadIdx.x] = n[threadIdx.x] * 2 + 1;
}
