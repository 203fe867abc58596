// args: --blockDim=32
// 64-bit elements and fields take two words (low first): an element `i` of a `long long`
// array is words 2i and 2i+1, a struct's `long` field two words of the element; an index
// of 64 bits is its low word, or all ones (out of bounds) if the high word is not 0.
struct P { float w; long assign; };
__device__ long long twice(long long v) { return v + v; }
__global__ void k(long long *a, P *p, int *out) {
  long long i = threadIdx.x;
  a[i] = twice(p[threadIdx.x].assign);
  out[i] = (int)a[i];
}
