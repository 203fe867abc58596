// args: --blockDim=32
// kpl deduces a template's type argument only from a variable, `&variable` or literal
// argument: from an expression it says it cannot tell.
template <typename T>
__device__ T twice(T x) {
  return x + x;
}

__global__ void k(int *a) {
  a[0] = twice(a[1] + 1);
}
