//pass
//--blockDim=[8,8] --gridDim=[2,2]

// Multi-dimensional array parameters (`float a[][8]`): a kernel's, indexed by rows of 8,
// and a device function's, given a 2-D `__shared__` tile and a 1-D pointer. Each block
// transposes its 8x8 tile of `in` into its own rows of `out`. `sizeof` sees the rows.
#define T 8

__device__ void put(float t[][T], int y, int x, float v) { t[y][x] = v; }
__device__ float get(const float m[T][T], int y, int x) { return m[y][x]; }

__global__ void transpose(float out[][T], const float *in) {
  // `out` is a pointer to rows of 8 floats, as C has it.
  __assert(sizeof(out[0]) == T * sizeof(float) && sizeof(out) == sizeof(float *));
  __shared__ float tile[T][T];
  int x = threadIdx.x, y = threadIdx.y;
  int block = blockIdx.y * gridDim.x + blockIdx.x;
  put(tile, y, x, in[(block * T + y) * T + x]);
  __syncthreads();
  out[block * T + y][x] = get(tile, x, y);
}
