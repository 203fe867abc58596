//pass
//--blockDim=[16,16] --gridDim=[4,4]

// Tiled transpose through a padded 2-D shared tile.
#define TILE 16
#define N (TILE * 4)
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}
