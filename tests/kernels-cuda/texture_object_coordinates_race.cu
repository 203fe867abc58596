//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//race on coords

// A texture object's read is no access, but its coordinates are read from memory: here
// from an element that another thread writes.
__global__ void k(float *coords, float *out, cudaTextureObject_t tex) {
  int i = threadIdx.x;
  out[i] = tex1D<float>(tex, coords[(i + 1) % 64]);
  coords[i] = out[i];
}
