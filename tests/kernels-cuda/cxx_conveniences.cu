//pass
//--blockDim=32 --gridDim=2

// C++ that CUDA code uses: `constexpr` variables and functions, `static_assert`, the named
// casts, and default arguments (in a declaration, written into calls that omit them; a
// kernel's are dropped).
constexpr int TILE = 32;
static_assert(TILE % 32 == 0, "a tile is whole warps");

__device__ constexpr int twice(int x) { return 2 * x; }
__device__ int scaled(int a, int k = 3, int m = TILE);
__device__ int scaled(int a, int k, int m) { return a + k * m; }

__global__ void k(int *data, float *f, const float *g, int *partial = NULL) {
  unsigned i = blockIdx.x * TILE + threadIdx.x;
  float x = static_cast<float>(data[i]);
  __assert(scaled(1) == 97 && scaled(0, 2) == 64 && scaled(1, 1, 1) == 2);
  __assert(twice(scaled(0, 1)) == 64);
  f[i] = x + reinterpret_cast<const float *>(g)[0] * 0.0f;
  data[i] = static_cast<int>(x) + const_cast<int *>(data)[i] * 0;
}
