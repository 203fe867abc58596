//xfail:NOT_ALL_VERIFIED
//--blockDim=[32] --gridDim=[1] --no-benign-tolerance
//write-write race on A\[0\]

// Every thread writes the same value to `A[0]`: tolerated by default for `.cu` files (as
// in GPUVerify), a race under `--no-benign-tolerance`.
__global__ void k(int *A) {
  A[0] = 1;
}
