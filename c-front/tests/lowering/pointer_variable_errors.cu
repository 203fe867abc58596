// args: --blockDim=32
// A file-scope pointer variable holds a pointer the host sets: kpl cannot tell which
// array it points into, so going through it is refused, each at its place (its storage,
// `&p`, is fine). An array of them is refused too.
__device__ float *p;
__device__ int *many[4];

__global__ void k(float *out) {
  out[threadIdx.x] = p[threadIdx.x];
  *p = 1.0f;
  atomicAdd((unsigned int *)&p, 1);
}
