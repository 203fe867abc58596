// args: --blockDim=32 --gridDim=1
// What kpl does not read of C++ classes is refused with a diagnostic each: a constructor
// that returns early, overloaded operators other than `[]`, overloaded member functions,
// static data members other than constants, base classes (of classes the kernel uses: a
// class no device code names is host code, skipped).
struct V {
  float x;
  static int count;
  __device__ V(float a) : x(a) { if (a < 0.0f) return; }
  __device__ V operator+(const V &o) const { return V(x + o.x); }
  __device__ float get() const { return x; }
  __device__ float get(int k) const { return x * k; }
};

struct W : V {
  __device__ float twice() const { return 2.0f; }
};

__global__ void k(float *out, V *v, W *w) {
  out[threadIdx.x] = v[threadIdx.x].x + w[threadIdx.x].twice();
}
