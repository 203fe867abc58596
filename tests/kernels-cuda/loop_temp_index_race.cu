//xfail:NOT_ALL_VERIFIED
//--blockDim=[16,16] --gridDim=[4,4]
//race

// As loop_temp_index.cu, but the row stride is 8 while a row holds up to 64 threads'
// columns: rows overlap, a real race.
#define NJ 8
__global__ void gemm_kernel(int ni, int nj, int nk, float *a, float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < ni) && (j < nj)) {
    for (int k = 0; k < nk; k++) {
      c[i * NJ + j] += a[k];
    }
  }
}
