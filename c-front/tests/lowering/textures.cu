// args: --blockDim=32 --gridDim=2
// A texture reference is read-only global memory of the host's size: `tex1Dfetch` reads
// an element, a filtered read (`tex2D`) is any value of the element type. Host function
// templates are skipped like other host code.
texture<float, 1, cudaReadModeElementType> t_in;
texture<float4, 2, cudaReadModeElementType> t_img;
template <typename T> T *alloc(int n) { T *t; cudaMalloc((void **)&t, sizeof(T) * n); return t; }
__global__ void k(float *out, float4 *o4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch(t_in, i) + tex1Dfetch(t_in, i + 1);
  o4[i] = tex2D(t_img, 0.5f, (float)i);
}
