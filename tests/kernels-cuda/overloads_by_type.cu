//pass
//--blockDim=[16,16] --gridDim=[2,2]

// `clamp` overloaded for `float` and `int`, as CUDA's simpleCUDA2GL sample writes it: each
// call takes the overload whose parameter types are exactly its arguments'; the `int`
// one's result indexes the thread's own row, so the writes do not race.
__device__ float clamp(float x, float a, float b) { return max(a, min(b, x)); }
__device__ int clamp(int x, int a, int b) { return max(a, min(b, x)); }

__global__ void shade(float *img, int *rows, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float r = img[y * 32 + x] * 2.0f;
  img[y * 32 + x] = clamp(r, 0.0f, 255.0f);
  rows[y * 32 + clamp(x, 0, 31)] = clamp(y - w, 0, 100);
}
