//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
//confirmed write-write race on hist\[[0-9]+\] \(inter-group\)
//
// `atomicAdd_block` is atomic for the threads of one block only: blocks counting into one
// global histogram with it race with each other (ScoRD's scoped race), which testing on one
// GPU rarely shows. Per-block histograms (`atomic_block_scope_ok.cu`) do not.

__global__ void histogram(int *hist, const int *keys) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd_block(&hist[keys[i] & 15], 1);
}
