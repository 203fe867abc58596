// args: --blockDim=64
// A reference that is not `const` needs an object; a kernel's parameters are values.
__device__ void set(int &x) { x = 1; }
__global__ void k(int *a, int &n) {
  set(a[threadIdx.x] + 1);
}
