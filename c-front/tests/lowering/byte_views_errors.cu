// args: --blockDim=32
// What kpl does not keep at bytes, each at its place: an 8-byte `double` (one word in
// kpl), a view of a byte-level array through `double *`, a thread's own array, and an
// atomic on a 2-byte element (CUDA's 16-bit `atomicCAS`).
__global__ void k(int *a, double *d, unsigned short *h) {
  unsigned int t = threadIdx.x;
  char priv[8];
  ((int *)d)[t] = 1;
  ((char *)a)[t] = 0;
  ((double *)a)[t] = 2.0;
  int *pp = (int *)priv;
  pp[0] = 1;
  ((char *)h)[t] = 0;
  atomicCAS(&h[t], 0, 1);
}
