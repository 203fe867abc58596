//pass
//--blockDim=64 --gridDim=2
//
// Two function templates of one name with different numbers of parameters (a helper with
// defaults that calls the full one): each call takes the one its arguments fit.
__device__ float twice(float v) { return 2.0f * v; }

using op_t = float (*)(float);

template <op_t op>
__device__ float apply(float v, float bias, bool flag) {
  return flag ? op(v) + bias : op(v);
}

template <op_t op>
__device__ float apply(float v) {
  return apply<op>(v, 0.0f, false);
}

__global__ void k(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = apply<twice>(in[i]) + apply<twice>(in[i], 1.0f, true);
}
