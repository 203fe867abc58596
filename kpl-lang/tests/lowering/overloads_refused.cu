// args: --blockDim=32 --gridDim=1
// Two definitions of one function name are C++ overloads, which kpl does not resolve: it
// refuses the second rather than choose one of them for every call.
__device__ int f(int x) { return x + 1; }
__device__ float f(float x) { return x * 2.0f; }

__global__ void k(int *a) {
  a[threadIdx.x] = f(threadIdx.x);
}
