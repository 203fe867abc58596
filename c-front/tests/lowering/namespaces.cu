// args: --blockDim=16
// C++ namespaces: read as their contents; `using` dropped; qualifiers dropped.
namespace util {
namespace detail {
__device__ int twice(int x) { return 2 * x; }
}
__device__ int clampi(int x, int hi) { return std::min(x, hi); }
}
namespace {
__device__ int one() { return 1; }
}
using namespace util;
using util::detail::twice;

__global__ void k(int *out) {
  out[threadIdx.x] = util::detail::twice(threadIdx.x) + ::util::clampi(3, 2) + one();
}
