//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//out-of-bounds

// The same test as short_circuit.cu with the operands swapped: the read comes first and
// runs past the end of buf for the last thread.
__global__ void k(int *out) {
  __shared__ int buf[64];
  int i = threadIdx.x;
  buf[i] = i;
  __syncthreads();
  if (buf[i + 1] > 0 && i + 1 < 64)
    out[i] = buf[i + 1];
}
