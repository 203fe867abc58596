// args: --blockDim=4 --gridDim=1
// C++ linkage blocks and specifications are read for their items.
extern "C" {
__device__ int twice(int x) { return 2 * x; }
}
extern "C" __global__ void k(int *A) { A[threadIdx.x] = twice(threadIdx.x); }
