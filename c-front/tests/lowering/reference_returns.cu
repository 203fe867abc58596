// args: --blockDim=16 --gridDim=1
// A function that returns a reference with one `return` is its expression at each call,
// its parameters replaced by the arguments: a place to read, assign or take the address
// of. `operator[]` of a class is one (its `const` twin is not read).
struct Vec8 {
  float v[8];
  __device__ float &operator[](int i) { return v[i]; }
  __device__ const float &operator[](int i) const { return v[i]; }
};

__device__ float &at(float4 &q, int i) { return ((float *)&q)[i]; }

__global__ void k(float *out, const float4 *in) {
  int t = threadIdx.x;
  Vec8 acc;
  for (int i = 0; i < 8; i++) acc[i] = (float)i;
  float4 q = in[t];
  at(q, t % 4) = acc[t % 8];
  out[t] = at(q, 0) + acc[7];
}
