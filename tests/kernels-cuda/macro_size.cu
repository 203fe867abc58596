//pass
//--blockDim=256 --gridDim=16 -DCHUNK=4

// Each thread handles CHUNK consecutive elements (the size comes from -D).
#ifndef CHUNK
#error CHUNK must be defined
#endif
__global__ void k(const float *a, float *b) {
  unsigned base = (blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
  for (unsigned i = 0; i < CHUNK; i++)
    b[base + i] = a[base + i] * 2.0f;
}
