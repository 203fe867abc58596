//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1 --no-inline
//error: possible write-write race on sums\[0\]
//1 confirmed by the interpreter

// Under --no-inline only a call with no effect on memory that other threads see uses
// just its contract; `put` writes shared memory, so its calls are inlined and the race
// of every thread writing sums[0] is found at the call, and confirmed.
__device__ int put(int *s, int i, int v) {
  __requires(i >= 0);
  __ensures(__return_val_int() == v);
  s[i] = v;
  return v;
}

__global__ void k(int *out) {
  __shared__ int sums[64];
  out[threadIdx.x] = put(sums, 0, threadIdx.x);
}
