//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//write-write race on c

// sincosf gives the sine and the cosine through pointers: each is a write of the
// pointed-at element, so two threads writing one cosine race.

__global__ void k(const float *x, float *s, float *c) {
  unsigned int i = threadIdx.x;
  sincosf(x[i], &s[i], &c[i / 2]);
}
