//xfail:NOT_ALL_VERIFIED
//--blockDim=[16,16] --gridDim=[4,4]
//possible write-write race on out
//`--equality-abstraction` tracks what they read
/* A 1-D copy launched in 2-D: threads (x, 0) and (x, 1) write `out[i]` with the value
   each read of `in[i]`, equal values, a benign race. Under the adversarial abstraction
   (GPUVerify's choice here) the reads are arbitrary, so the race is reported, unconfirmed,
   with a hint; benign_copy_2d_equality.cu verifies it with `--equality-abstraction`. */
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
