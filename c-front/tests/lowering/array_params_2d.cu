// args: --blockDim=[4,4] --gridDim=1
// Multi-dimensional array parameters: rows of the constant sizes after the first bracket,
// for a kernel's parameter, a device function's given a 1-D pointer or an array of the
// same rows, and refused where a size after the first is not a constant.
#define N 4
__device__ void put(float t[][N], int y, int x, float v) { t[y][x] = v; }
__device__ float get(const float m[N][N], int y, int x) { return m[y][x]; }
__global__ void k(float a[][N], float *flat, float c[2][N][N]) {
  __shared__ float tile[N][N];
  int x = threadIdx.x, y = threadIdx.y;
  put(tile, y, x, flat[y * N + x]);
  __syncthreads();
  a[y][x] = get(tile, x, y) + c[1][y][x];
  put(flat, y, x, 0.0f);
}
