//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=2
//out-of-bounds write of the per-thread array acc \(private\): acc\[4\], past a thread.s 4 elements
//
// A thread's own array is kept as its region of one array of all threads' regions: an
// index past its end (`acc[4]` of `float acc[4]`) reaches the next thread's region. kpl
// checks that each access stays in the thread's region (so private arrays need no race
// checks): this kernel is not verified.
__global__ void k(const float *in, float *out, int n) {
  float acc[4];
  for (int i = 0; i < 4; i++) {
    acc[i] = in[threadIdx.x];
  }
  int j = n > 0 ? 4 : 0;
  acc[j] = 1.0f;
  out[blockIdx.x * 32 + threadIdx.x] = acc[0] + acc[3];
}
