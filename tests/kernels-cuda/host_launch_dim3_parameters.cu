//xfail:NOT_ALL_VERIFIED
//
//launch at line 27: grid 2, block 32\): verified
//launch at line 30: grid 16, block 16\): race
//
// Launchers as llm.c's matmul_forward writes them: `dim3` locals built from the launcher's
// parameters (named like CUDA's own `gridDim` and `blockDim`), a parameter assigned in
// the body (`s = 16;`, the launch after it sees 16), a size read through a cast
// (`(float)n`), and a kernel loading a `float4` with `__ldcs(&a[i])`. Each thread doubles
// one `float4`: 64 of them for 256 floats. The second launch has 256 threads, which
// write `a4[i % 64]`, four threads to each.
template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }

__global__ void twice(float4 *a4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = __ldcs(&a4[i % 64]);
  v.x *= 2.0f;
  v.y *= 2.0f;
  v.z *= 2.0f;
  v.w *= 2.0f;
  __stcs(&a4[i % 64], v);
}

void run(float4 *a4, int n, int s) {
  dim3 gridDim(ceil_div(n / 4, s));
  dim3 blockDim(s);
  twice<<<gridDim, blockDim>>>(a4);
  s = 16;
  dim3 g2(n / s);
  twice<<<g2, s>>>(a4);
  float rate = (float)n / 2;
  (void)rate;
}

int main() {
  float4 *a4;
  cudaMalloc(&a4, 64 * sizeof(float4));
  run(a4, 256, 32);
  return 0;
}
