// args: --blockDim=8 --gridDim=1
__device__ int f(int x) { return x; }
