// args: --blockDim=8 --gridDim=1
// `sizeof` of an expression kpl does not type (arithmetic), and of an unknown type.
__global__ void k(int *out, int a, int b) {
  out[0] = sizeof(a + b);
  out[1] = sizeof(threadIdx);
}
