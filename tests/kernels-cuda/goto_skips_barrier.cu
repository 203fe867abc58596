//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//barrier divergence

// Odd threads jump over the barrier: barrier divergence.
__global__ void k(int *a) {
  int t = threadIdx.x;
  a[t] = t;
  if (t % 2) goto out;
  __syncthreads();
  a[t] = a[(t + 2) % 32];
out:
  ;
}
