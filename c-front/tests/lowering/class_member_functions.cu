// args: --blockDim=32 --gridDim=1
// Member functions are free functions whose first parameter is the object (a reference):
// fields in their bodies, `this->`, calls of other member functions, static member
// functions (`C::f`), `const` ones, and ones defined outside the class.
struct Acc {
  float sum;
  int n;
  __device__ void add(float v) { sum += v; n++; }
  __device__ float mean() const { return n == 0 ? 0.0f : sum / n; }
  __device__ static int twice(int x) { return 2 * x; }
  __device__ void reset() { this->sum = 0.0f; n = 0; }
  __device__ void add_twice(float v) { add(v); this->add(v); }
  __device__ void set(float sum) { this->sum = sum; }
  __device__ float scaled(float s) const;
};

__device__ float Acc::scaled(float s) const { return mean() * s; }

__global__ void k(float *in, float *out, Acc *accs) {
  Acc a;
  a.reset();
  a.add(in[threadIdx.x]);
  a.add_twice(1.0f);
  a.set(a.scaled(2.0f));
  out[threadIdx.x] = a.mean();
  accs[threadIdx.x].add(1.0f);
  Acc *p = &accs[threadIdx.x];
  p->add(2.0f);
  out[Acc::twice(threadIdx.x) + 32] = p->mean();
}
