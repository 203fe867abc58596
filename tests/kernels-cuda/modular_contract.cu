//pass
//--blockDim=64 --gridDim=1 --no-inline

// A contract that speaks of two threads: given distinct arguments, `next` gives distinct
// results. Checked on its own (--no-inline) with the two-thread __requires assumed, and
// at the call, inlined, where threadIdx.x is distinct.
__device__ int next(int x) {
  __requires(__distinct_int(x));
  __ensures(__distinct_int(__return_val_int()));
  return x + 1;
}

__global__ void k(int *a) {
  int i = next(threadIdx.x);
  a[i] = i;
}
