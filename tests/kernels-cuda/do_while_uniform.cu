//pass
//--blockDim=32 --gridDim=2

// A uniform do-while loop with a barrier in its body.
__global__ void k(int *out) {
  __shared__ int s[32];
  int r = 0;
  do {
    s[threadIdx.x] = r;
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = s[(threadIdx.x + 1) % 32];
    __syncthreads();
    r++;
  } while (r < 4);
}
