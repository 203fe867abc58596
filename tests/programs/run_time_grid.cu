// Grids the host code computes from values read at run time: `kpl verify` verifies each
// kernel for every grid the launch can have (the grid's size an unknown, tied to the
// kernel's arguments where the host code computes it from them), and replays each defect
// at the grid its witness gives.
#include <cstdlib>

// Verified: the grid covers `n` exactly (`(n + 255) / 256 == gridDim.x`).
__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// A race between neighbours, confirmed at a grid of a few groups.
__global__ void shift(int n, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) y[i + 1] = y[i];
}

// `gridDim.x` is the launch's, not a bound kpl chose: fails from 100 groups on.
__global__ void small_grid(int *out) {
    assert(gridDim.x < 100);
    out[blockIdx.x] = 1;
}

// One thread per group: a launch of one group is one thread, whose assertion fails.
__global__ void several_groups(int *out) {
    assert(gridDim.x != 1);
    out[blockIdx.x] = 1;
}

// Rows of a 2-D grid whose y size is a constant: verified.
__global__ void rows(int n, float *m) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x < n) m[y * n + x] = 0.0f;
}

// A per-thread array: each thread's copy is its own whatever the grid. Verified.
__global__ void private_sum(int n, const float *x, float *out) {
    float acc[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 4; k++) acc[k] = (i < n) ? x[i] : 0.0f;
    if (i < n) out[i] = acc[0] + acc[3];
}

int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    int blocks = atoi(argv[2]);
    if (n <= 0 || n > (1 << 24)) return 1;
    float *x, *y;
    int *o;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, 4 * n * sizeof(float));
    cudaMalloc(&o, 1024 * sizeof(int));
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    shift<<<(n + 255) / 256, 256>>>(n, y);
    small_grid<<<blocks, 32>>>(o);
    several_groups<<<blocks, 1>>>(o);
    dim3 grid((n + 63) / 64, 4);
    rows<<<grid, 64>>>(n, y);
    private_sum<<<(n + 127) / 128, 128>>>(n, x, y);
    return 0;
}
