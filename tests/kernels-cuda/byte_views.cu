//pass
//--blockDim=64 --gridDim=2

// An int array seen through `unsigned char *` is kept one byte per word: each thread
// writes and reads the four bytes of its own int (little-endian: byte 0 is the low
// one), and a shared int array seen as bytes after a barrier; no two threads touch a
// byte in common.

__global__ void bytes(int *A, unsigned int *out) {
  __shared__ int s[64];
  unsigned char *b = (unsigned char *)A;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  b[4 * t + 1] = 7;
  b[4 * t] = b[4 * t + 1] + 1;
  out[t] = A[t] & 0xffff;
  s[threadIdx.x] = t;
  __syncthreads();
  unsigned char *sb = (unsigned char *)s;
  out[t] += sb[4 * ((threadIdx.x + 1) % 64)];
}
