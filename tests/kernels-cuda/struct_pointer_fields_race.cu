//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//error: possible write-write race on out\[

// A struct's pointer field that may point into either of two arrays: threads of one
// parity write through it into `out` at the same element (the others each their own).

struct Pair {
  int *dst;
  int k;
};

__global__ void k(int *out, int *other) {
  Pair p;
  p.k = threadIdx.x;
  p.dst = (threadIdx.x & 1) ? out : other;
  p.dst[(threadIdx.x & 1) ? 0 : threadIdx.x] = p.k;
}
