// A 2-D grid whose x size the host code computes at run time and whose y size is a
// constant: a defect's witness runs under the launch's y size, which the report gives with
// the model's x size (`--gridDim=[X,4]`).
#include <cstdlib>

// Each row's threads write their neighbour's element: a race within a row.
__global__ void rows_shift(int n, float *m) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x + 1 < n && n <= 4096) m[y * 4096 + x + 1] = m[y * 4096 + x];
}

int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    float *m;
    cudaMalloc(&m, 4 * 4096 * sizeof(float));
    rows_shift<<<dim3((n + 127) / 128, 4), 128>>>(n, m);
    return 0;
}
