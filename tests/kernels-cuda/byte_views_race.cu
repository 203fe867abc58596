//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//possible write-write race on A\[\d+\] \(byte [0-3]\)

// Two threads write one byte: thread 2k and 2k+1 both write byte k of the int array
// (A[k / 4], byte k % 4), with different values.

__global__ void bytes(int *A) {
  char *b = (char *)A;
  b[threadIdx.x / 2] = threadIdx.x;
}
