// args: --blockDim=8 --gridDim=1
// A lambda bound to a name that captures by reference is its body at each call that is a
// statement, its parameter a fresh local: `step(t)` reads the enclosing `t`.
__global__ void k(float *out, const float *in) {
  float acc = 0.0f;
  auto step = [&](int t) {
    acc += in[t];
  };
  int t = threadIdx.x;
  for (; t < 32; t += 8) {
    step(t);
  }
  out[threadIdx.x] = acc;
}
