// args: --blockDim=8 --gridDim=1
// A dereferenced sum or difference is an element whatever the nesting C parses it with:
// `*(a + s * i + j)` is `a[s * i + j]`, `*(p - 1)` is `p[-1]`; so is a pointer argument.
// A variable may take the name of a type (here a C++ struct tag) in its block, and a
// parameter in a prototype; the tag is a type again after them.
typedef struct latLong { float lat; float lng; } LatLong;

__device__ void put(int *q, int v) { *q = v; }
__device__ void show(LatLong latLong);

__global__ void k(int *a, int s, latLong *loc, float *d) {
  int i = threadIdx.x;
  *(a + s * i + 2) = *(a + s * i - 1);
  put(a + 8 * s + i, 5);
  LatLong *latLong = loc + i;
  float *dist = d + i;
  *dist = latLong->lat - latLong->lng;
}
