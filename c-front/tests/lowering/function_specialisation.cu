// args: --blockDim=32 --gridDim=2
// A function template's explicit specialisation ends a recursion that unrolls a loop at
// compile time (CUDA's convolutionTexture sample): each instance `row<i - 1>` is the
// instance for the folded value, and `row<-1>` is the specialisation.
#define R 3
__constant__ float c_K[2 * R + 1];
template <int i> __device__ float row(const float *x, int j) { return x[j + R - i] * c_K[i] + row<i - 1>(x, j); }
template <> __device__ float row<-1>(const float *x, int j) { return 0; }
__global__ void k(const float *in, float *out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + R;
  out[j] = row<2 * R>(in, j);
}
