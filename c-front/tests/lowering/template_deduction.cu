// args: --blockDim=32
// A type argument left out is deduced from a variable, `&variable` or literal argument
// (its declared type; for a `T *` parameter, what it points to). From any other argument
// kpl cannot tell it, and says so (template_deduction_fails.cu).
template <typename T>
__device__ T twice(T x) {
  return x + x;
}

template <typename T>
__device__ void store(T *p, T v) {
  p[threadIdx.x] = v;
}

__global__ void k(int *a, float *f) {
  int v = a[threadIdx.x];
  store(a, twice(v));
  float g = twice(2.5f);
  store(f, g);
}
