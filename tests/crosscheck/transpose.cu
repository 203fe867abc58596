// crosscheck: equivalent
// args: --reference=transpose_ref --blockDim=[4,4] --gridDim=[2,2] --array-len=64
// A tiled transpose through shared memory (the tile padded against bank conflicts)
// against the two nested loops.
#define TILE 4
#define N 8
__global__ void transpose_kern(float *out, const float *in) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose_ref(float *out, const float *in) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            out[j * N + i] = in[i * N + j];
}
