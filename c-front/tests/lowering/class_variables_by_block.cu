// args: --blockDim=4 --gridDim=1
// One name declared in two blocks with two classes that have `operator[]`: each use reads
// as the operator of the class its own block declares.
struct Floats {
  float v[2];
  __device__ float &operator[](int i) { return v[i]; }
};
struct Ints {
  int v[2];
  __device__ int &operator[](int i) { return v[i]; }
};

__global__ void k(float *f, int *n) {
  {
    Floats p;
    p[0] = f[threadIdx.x];
    f[threadIdx.x] = p[0] * 2.0f;
  }
  {
    Ints p;
    p[1] = n[threadIdx.x];
    n[threadIdx.x] = p[1] + 1;
  }
}
