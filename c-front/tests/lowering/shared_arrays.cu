// args: --blockDim=[16,16] --gridDim=1
// 2-D shared arrays are flattened row-major; a shared scalar is a one-element array.
#define T 16
__global__ void k(int *out) {
  __shared__ int tile[T][T + 1];
  __shared__ int flag;
  tile[threadIdx.y][threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0 && threadIdx.y == 0) flag = 1;
  __syncthreads();
  out[threadIdx.y * T + threadIdx.x] = tile[threadIdx.x][threadIdx.y] + flag;
}
