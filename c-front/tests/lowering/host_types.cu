// args: --blockDim=64 --gridDim=1
// Types that no device code names are host code, skipped with a note whatever they hold
// (CUDA runtime handles, a vertex type of a graphics API); types the kernel names, and the
// types those name, are kept. `extern "C" { ... }` is read as its contents, a `;` after a
// function's body is empty, and `__inline__` is `inline`.
typedef struct {
  int device;
  cudaStream_t stream;
  float *d_data;
} Plan;

struct Vertex { XMFLOAT3 position; };

typedef struct Pair { float lo, hi; } PairT;
struct Bounds { PairT x; };

extern "C" {
void launch_all(Plan *plans, int n) {
  for (int i = 0; i < n; i++) cudaSetDevice(plans[i].device);
};
}

static __device__ __inline__ float width(struct Bounds b) { return b.x.hi - b.x.lo; };

__global__ void k(struct Bounds *b, float *w) {
  w[threadIdx.x] = width(b[threadIdx.x]);
}
