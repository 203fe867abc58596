// args: --blockDim=8 --gridDim=1
// A braced list given to a parameter of struct type, or returned from a function that
// returns a struct, is a compound literal of that type.
struct MaxSum {
  float m;
  float s;
};

__device__ MaxSum join(MaxSum a, MaxSum b) {
  return {fmaxf(a.m, b.m), a.s + b.s};
}

__global__ void k(float *out, const float *x) {
  MaxSum acc = {-1.0f, 0.0f};
  acc = join(acc, {x[threadIdx.x], 1.0f});
  out[threadIdx.x] = acc.m + acc.s;
}
