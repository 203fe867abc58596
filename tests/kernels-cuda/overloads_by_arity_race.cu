//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//write-write race on out

// Two overloads of `store` told apart by their argument counts: the one-argument call
// writes the thread's own element, the two-argument call an element another thread
// also writes with its own value (threads t and t + 32 both write out[t % 32 + 64]).
__device__ void store(float *out, int i) { out[i] = 1.0f; }
__device__ void store(float *out, int i, int stride) { out[i % stride + 64] = (float)i; }

__global__ void k(float *out) {
  store(out, threadIdx.x);
  store(out, threadIdx.x, 32);
}
