//pass
//--blockDim=[16,16] --gridDim=[4,4]

// PolyBench's gemm: the index of the loop's access is held in a temporary the lowering
// declares in the loop body (`local t := i * NJ + j`); inference must see through it to
// keep "thread 0's logged access is at i * NJ + j" (a false alarm before).
#define NJ 1024
#define NK 1024
__global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < ni) && (j < nj)) {
    c[i * NJ + j] *= beta;
    for (int k = 0; k < nk; k++) {
      c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
    }
  }
}
