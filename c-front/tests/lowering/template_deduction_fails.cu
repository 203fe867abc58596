// args: --blockDim=32
// kpl deduces a template's type argument from a variable, `&variable`, a literal or an
// arithmetic expression of those: from a call's result it says it cannot tell.
template <typename T>
__device__ T twice(T x) {
  return x + x;
}

__device__ int one() { return 1; }

__global__ void k(int *a) {
  a[0] = twice(one() + 1);
}
