// perf: --blockDim=[32,32] --gridDim=[2,2]
// The SDK's tile transpose with a padded [32][33] tile: no bank conflict, coalesced.
#define TILE 32
__global__ void transpose(float *odata, const float *idata) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = idata[y * 64 + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  odata[y * 64 + x] = tile[threadIdx.x][threadIdx.y];
}
