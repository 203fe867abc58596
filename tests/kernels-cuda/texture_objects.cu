//pass
//--blockDim=[16,16] --gridDim=[2,2]

// Texture objects (CUDA's bindless textures, as CUDA's samples read images): a read through
// one gives any value of its type and races with nothing; its coordinates are evaluated.
typedef unsigned int TColor;

__device__ float4 sample(cudaTextureObject_t tex, float x, float y) {
  return tex2D<float4>(tex, x + 0.5f, y + 0.5f);
}

template <class T>
__global__ void copy(TColor *dst, const float *weights, int w, cudaTextureObject_t tex, cudaTextureObject_t lut) {
  __requires(w == 32);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float4 p = sample(tex, (float)x, (float)y);
  T s = tex1Dfetch<T>(lut, x);
  float l = tex2DLod<float>(tex, (float)x, weights[y], 0.0f);
  dst[y * w + x] = (TColor)(p.x * 255.0f + s + l);
}

template __global__ void copy<float>(TColor *, const float *, int, cudaTextureObject_t, cudaTextureObject_t);
