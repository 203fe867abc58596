// args: --blockDim=32 --gridDim=1
// A math function's result through a pointer may go to a field or vector component
// (`__sincosf(phase, &t.y, &t.x)`, CUDA's convolutionFFT2D), also of a reference
// parameter's object: an arbitrary value stored there.
typedef float2 fComplex;
inline __device__ void getTwiddle(fComplex &twiddle, float phase) { __sincosf(phase, &twiddle.y, &twiddle.x); }

__global__ void k(fComplex *out, const float *phase) {
  fComplex t;
  getTwiddle(t, phase[threadIdx.x]);
  out[threadIdx.x] = t;
  __sincosf(phase[threadIdx.x], &out[threadIdx.x + 32].x, &out[threadIdx.x + 32].y);
}
