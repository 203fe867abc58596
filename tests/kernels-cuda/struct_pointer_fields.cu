//pass
//--blockDim=32 --gridDim=4

// Pointer fields of struct variables are pointer variables: assigned, advanced, copied
// with the struct, and passed by value (the callee moves its own copy only).

struct View {
  float *data;
  int n;
};

__device__ void fill(View v, int t) {
  v.data += t;
  v.data[0] = 1.0f;
}

__global__ void k(float *out, float *in) {
  View v = {in, 0};
  v.data = out + blockIdx.x * blockDim.x;
  v.n = blockDim.x;
  fill(v, threadIdx.x);
  // The caller's `v.data` did not move: each thread writes its own element again.
  v.data[threadIdx.x] = 2.0f;
  View w = v;
  w.data += threadIdx.x;
  float *src = in;
  View r = {src, 0};
  if (threadIdx.x < w.n) {
    w.data[0] = r.data[threadIdx.x];
  }
}
