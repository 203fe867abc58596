//pass
//--blockDim=256 --gridDim=8
/* Per warp, how many elements are positive: a ballot and a population count, written by
   each warp's lane 0; every lane of the warp runs the ballot. */
__global__ void count_positive(const float *in, unsigned *counts) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned votes = __ballot_sync(0xffffffff, in[i] > 0.0f);
  bool any = __any_sync(0xffffffff, in[i] > 0.0f);
  if (threadIdx.x % 32 == 0 && any) {
    counts[i / 32] = __popc(votes);
  }
}
