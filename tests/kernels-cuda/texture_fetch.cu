//pass
//--blockDim=128 --gridDim=8

// A texture is read-only memory: any number of threads may fetch one element.
texture<float, 1, cudaReadModeElementType> coeffs;

__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch(coeffs, 0) * tex1Dfetch(coeffs, i % n);
}
