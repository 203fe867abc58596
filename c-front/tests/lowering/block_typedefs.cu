// args: --blockDim=32 --gridDim=1
// A `typedef` in a block ends at that block's `;` (CUDA's cudaTensorCoreGemm writes
// `typedef int4 copy_t;` in a loop body); it names its type from there on.
__global__ void k(int4 *a, const int4 *b) {
  for (int i = 0; i < 2; i++) {
    typedef int4 copy_t;
    *((copy_t *)(a + 64 * i) + threadIdx.x) = *((const copy_t *)(b + 64 * i) + threadIdx.x);
  }
  typedef float real;
  real x = 2.0f;
  ((float *)a)[threadIdx.x] = x;
}
