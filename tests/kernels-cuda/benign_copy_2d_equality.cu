//pass
//--blockDim=[16,16] --gridDim=[4,4] --equality-abstraction
/* benign_copy_2d.cu with the equality abstraction: both threads read one `in`, so their
   writes to `out[i]` are equal and the race benign (tolerated by default for .cu). */
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
