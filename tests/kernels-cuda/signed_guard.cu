//pass
//--blockDim=128 --gridDim=1

// Signed arithmetic: i - 1 is negative for thread 0, and the signed guard excludes it.
__global__ void k(int *out) {
  __shared__ int s[128];
  int i = threadIdx.x;
  s[i] = i;
  __syncthreads();
  int j = i - 1;
  if (j >= 0)
    out[i] = s[j];
}
