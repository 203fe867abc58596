// perf: --blockDim=[16,16] --gridDim=[1,1] --arch=cc2
// GKLEE's appendix A.3: the SDK 4.0 transposeNoBankConflicts at TILE_DIM 16 on 2.x has a
// bank conflict after all: a warp spans two rows of 16, and tile[4][0] (word 68) and
// tile[5][15] (word 100) share bank 4.
#define TILE_DIM 16
__global__ void transposeNoBankConflicts(float *odata, float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + yIndex * 16;
  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + yIndex * 16;
  tile[threadIdx.y][threadIdx.x] = idata[index_in]; // expect: bank_conflict 2
  __syncthreads();
  odata[index_out] = tile[threadIdx.x][threadIdx.y]; // expect: bank_conflict 2
}
