// args: --blockDim=32
// What memcpy and memset refuse, each at its place: a length or value kpl does not know,
// part of a double (one word in kpl), a pointer kpl cannot follow (into the bytes of a
// double), a copy too long to write out word by word. (Whole doubles copied between
// doubles, or cleared, are fine: the last lines lower without a diagnostic.)
__device__ int n(void);

__global__ void k(double *d, float *f, int *a, int v) {
  unsigned int t = threadIdx.x;
  memcpy(&a[t], &a[t + 32], n());
  memset(&a[t], v, 4);
  memcpy(&f[t], &d[t], 4);
  memcpy((char *)&d[t] + 1, &a[t], 2);
  memset(a, 0, 0xFFFFFFFF0ull);
  memcpy(d, d + 1, 4);
  memset(d + t, 1, 8);
  memcpy(d + t, d + (t + 32), 8);
  memset(d + t, 0, 8);
  f[t] = (float)d[t];
}
