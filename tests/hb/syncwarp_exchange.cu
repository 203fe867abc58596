//pass
//--blockDim=32 --gridDim=1

// hb: ok
// Independent thread scheduling done right: `__syncwarp()` orders each lane's write before
// its neighbour's read.

__global__ void exchange(int *in, int *out) {
  __shared__ int s[32];
  unsigned int t = threadIdx.x;
  s[t] = in[t];
  __syncwarp();
  out[t] = s[(t + 1) % 32];
}
