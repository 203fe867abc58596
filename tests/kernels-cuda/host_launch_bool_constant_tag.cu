//xfail:NOT_ALL_VERIFIED
//
//launch at line 27: grid 4, block 32\): verified
//launch at line 29: grid 4, block 32\): race
//
// A kernel template whose `bool` parameter is deduced from a tag argument, as llm.c's
// `matmul_backward_bias_kernel8<<<...>>>(..., std::bool_constant<false>{})`: the type
// parameter from the pointer argument, the value from `std::bool_constant<Atomic>`. The
// host function's grid is `ceil_div(n, 8 * 4)`, whose template argument C++ deduces from
// `n` and the expression `8 * 4` (both `int`). With the tag `true` every block adds into
// one element atomically; with `false` it stores there: blocks race.
#include <type_traits>

template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }

template <typename OutFloat, bool Atomic>
__global__ void sum_into(OutFloat *out, const float *in, int n, std::bool_constant<Atomic>) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0 && i < n) {
    if constexpr (Atomic) { atomicAdd(&out[0], in[i]); } else { out[0] = in[i]; }
  }
}

void run(float *out, const float *in, int n) {
  int grid = ceil_div(n, 8 * 4);
  if (n > 1000) {
    sum_into<<<grid, 32>>>(out, in, n, std::bool_constant<true>{});
  } else {
    sum_into<<<grid, 32>>>(out, in, n, std::bool_constant<false>{});
  }
}

int main() {
  float *out, *in;
  cudaMalloc(&out, sizeof(float));
  cudaMalloc(&in, 128 * sizeof(float));
  run(out, in, 128);
  return 0;
}
