// References kpl refuses: without an initialiser, to a pointer, non-`const` to a value,
// and at file scope.
__device__ int g;
__device__ int &h = g;
__global__ void k(float *p, int n) {
  float &a;
  float *q = p;
  float *&b = q;
  float &c = n + 1.0f;
  p[0] = a + c + h;
}
