//pass
//--blockDim=32 --gridDim=2

// A `T **` parameter given the address of a pointer variable: `*p` is that variable, so a
// swap of two pointers and a step through a pointer to one move the caller's pointers.

__device__ void swap(float **a, float **b) {
  float *t = *a;
  *a = *b;
  *b = t;
}

__device__ void step(float **p, int n) { *p += n; }

__global__ void k(float *buf) {
  float *cur = buf + blockIdx.x * 2 * blockDim.x;
  float *next = cur + blockDim.x;
  swap(&cur, &next);
  cur[threadIdx.x] = 1.0f;           // the upper half
  step(&next, blockDim.x);
  next[threadIdx.x] = 2.0f;          // the upper half again, each thread its own element
  (*&cur)[threadIdx.x] += 1.0f;
}
