//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//possible write-write race

// Neighbouring threads write the same 64-bit element (t / 2): a race on its words.
__global__ void k(long long *a, long long v)
{
  long long t = threadIdx.x;
  a[t / 2] = v + t;
}
