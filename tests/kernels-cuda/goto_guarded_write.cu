//pass
//--blockDim=64 --gridDim=4

// Every thread but thread 0 jumps over the write, so only one thread per block writes
// out[blockIdx.x]: no race (were the `goto` ignored, all 64 would write it).
__global__ void k(int *out, int *in) {
  int t = threadIdx.x;
  if (t != 0) goto done;
  out[blockIdx.x] = in[blockIdx.x] + 1;
done:
  ;
}
