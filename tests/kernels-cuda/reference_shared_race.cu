//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//possible write-write race

// The reference is to a shared element that two threads share (t / 2): the write through
// it races.
__device__ void set(int &x, int v) { x = v; }

__global__ void k(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  set(s[t / 2], t);
  __syncthreads();
  out[t] = s[t / 2];
}
