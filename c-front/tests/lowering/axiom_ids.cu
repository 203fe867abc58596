// args: --blockDim=[64,64] --gridDim=64
// A file-scope `__axiom` over launch sizes and params is a `requires`; one over ids is an
// `assume` of every thread at the kernel's start (here it holds in no block: gridDim is
// one-dimensional, so blockIdx.y is 0, and every execution is excluded, as GPUVerify's).
__axiom(blockDim.x == 64);
__axiom(blockIdx.x == 16);
__axiom(blockIdx.y == 16);

__global__ void foo(int *A) {
  if (blockIdx.x != 16 || blockIdx.y != 16) {
    A[0] = threadIdx.x;
  }
}
