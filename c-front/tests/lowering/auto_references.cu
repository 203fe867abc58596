// `const auto &` to a value is a copy of the value's type (a float here); `auto &` to an
// element names it; a byte offset with an increment is evaluated once.
__global__ void k(float *a) {
  const auto &v = a[threadIdx.x] * 2.5f;
  auto &e = a[threadIdx.x];
  e = v;
  int i = 0;
  float *p = (float *)((char *)a + (i++) * 4);
  p[0] = i;
}
