//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[1] --kernel-args=k,16
//write-write race on A

// `--kernel-args` fixes `n` to 16: threads `t` and `t + 16` write one element.
__global__ void k(int *A, unsigned n) {
  A[threadIdx.x % n] = threadIdx.x;
}
