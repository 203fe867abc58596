// args: --blockDim=4 --gridDim=1
// A class member kpl cannot read as a declaration or a member function is a diagnostic
// (never a crash): here an operator whose parameters are missing.
struct S {
  int a;
  __device__ int operator() { return 1; }
  __device__ int get() { return a; }
};

__global__ void k(int *o, S *s) {
  o[threadIdx.x] = s[threadIdx.x].a;
}
