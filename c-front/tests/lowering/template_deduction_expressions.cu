// args: --blockDim=8 --gridDim=1
// A template parameter deduced from an arithmetic expression takes the expression's type
// by C's usual arithmetic conversions: `t + 1` is `int`, `x[i] * 2.0f` is `float`,
// `n + t` (an `unsigned int` and an `int`) is `unsigned int`.
template <class T> __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }
template <class T> __device__ T larger(T a, T b) { return a > b ? a : b; }

__global__ void k(float *out, const float *x, unsigned int n) {
  int t = threadIdx.x;
  int steps = ceil_div(t + 1, 4);
  float m = larger(x[t] * 2.0f, 1.0f);
  unsigned int u = larger(n + t, 7u);
  out[t] = m + steps + u;
}
