//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//write-write race on f

// The `float *` overload of `add` (see overloads_by_pointee.cu), chosen for a pointer to
// `float`: every thread writes f[0] with a value of its own.
__device__ void add(float *p, float v) { p[0] = v + (float)threadIdx.x; }
__device__ void add(int *p, float v) { p[threadIdx.x] = (int)v; }

__global__ void k(float *f) {
  add(&f[3], 1.0f);
}
