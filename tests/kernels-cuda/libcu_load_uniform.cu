//pass
//--blockDim=64 --gridDim=2
//
// A barrier under a condition on an atomic load (Indigo2's `sssp`: `if (s != maxval) {
// ... __syncthreads(); }` with `s = dist[src].load()`). The kernel never writes `dist`, so
// every thread of a block loads one value and the barrier is reached by all or none; the
// load of an array nothing writes is a plain read, which kpl can tell is uniform. So is a
// load of a `const` atomic (`limit`).
#include <cuda/atomic>
typedef cuda::atomic<int> data_type;

__global__ void relax(data_type *dist, const data_type *limit, const int *wl, data_type *dist_n) {
  const int src = wl[blockIdx.x] & 15;
  const int s = dist[src].load();
  const int l = limit[0];
  if (s != l) {
    dist_n[src * 64 + threadIdx.x].fetch_min(s + 1);
    __syncthreads();
    if (threadIdx.x == 0) dist_n[src * 64].fetch_min(s);
  }
}
