//pass
//--blockDim=64 --gridDim=2

// The last steps of a block reduction, one warp at a time on shared memory: Volta and
// later schedule a warp's threads independently, so each step waits for the others with
// `__syncwarp()` (reads, then writes, each ordered by one).

__global__ void reduce(const float *in, float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    float v = s[t] + s[t + 32];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    for (unsigned d = 16; d > 0; d /= 2) {
      if (t < d) {
        v = s[t] + s[t + d];
      }
      __syncwarp();
      if (t < d) {
        s[t] = v;
      }
      __syncwarp();
    }
  }
  if (t == 0) {
    out[blockIdx.x] = s[0];
  }
}
