// args: --blockDim=64 --gridDim=1
// A local `const` integer with a constant initialiser sizes arrays and labels cases, as a
// file-scope one does; the innermost declaration of the name counts.
__global__ void k(float *out, int sel) {
  const int N = 64;
  const unsigned HALF = N / 2;
  __shared__ float s[N];
  float priv[HALF / 8];
  s[threadIdx.x] = out[threadIdx.x];
  priv[0] = s[threadIdx.x];
  __syncthreads();
  {
    const int N = 3;
    switch (sel) {
    case N:
      out[threadIdx.x] = s[(threadIdx.x + HALF) % 64] + priv[0];
      break;
    default:
      break;
    }
  }
}
