// args: --blockDim=16 --gridDim=1
// Texture objects: handles (`unsigned long long`); a read through one is a call of a
// bodiless function, so any value of its type, its coordinates evaluated.
__global__ void k(float *out, const float *c, cudaTextureObject_t tex) {
  float4 p = tex2D<float4>(tex, c[threadIdx.x], 0.5f);
  out[threadIdx.x] = p.y + tex1Dfetch<float>(tex, threadIdx.x);
}
