//pass
//--blockDim=32 --gridDim=4
//
// A class template's instance sits where C++ instantiates it, after the typedef its
// argument names (declared after the template), not at the template.
template <class T>
struct Box {
  T v[2];
};

typedef float real;
typedef Box<real> rbox;

template <class T>
__device__ T first(const Box<T> &b) { return b.v[0]; }

__global__ void k(float *out) {
  rbox b = {{(real)threadIdx.x, 0.0f}};
  out[blockIdx.x * blockDim.x + threadIdx.x] = first<real>(b);
}
