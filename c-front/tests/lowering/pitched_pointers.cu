// `(T *)((char *)p + off)`: `p` moved by `off / 4` words after an assertion that `off`
// is a multiple of 4; C's arithmetic on `off` (signed, unsigned, 64-bit); a byte array
// needs no assertion.
__global__ void k(float *p, int2 *q, unsigned char *bytes, unsigned pitch, long long lp, int s) {
  float *row = (float *)((char *)p + blockIdx.x * pitch);
  row[threadIdx.x] = 1.0f;
  *((float *)((const char *)p + s - 8) + threadIdx.x) = 2.0f;
  int2 *c = (int2 *)((unsigned char *)q + lp) + threadIdx.x;
  c->y = 3;
  unsigned char *b = (unsigned char *)((char *)bytes + s);
  b[0] = 4;
}
