//xfail:NOT_ALL_VERIFIED
//--gridDim=[4,4]
//launch read from the host code: block \[32,32\] \(grid \[4,4\] from `--gridDim`\)
//confirmed write-write race on C
//
// As `host_launch_grid_given.cu`, but the host changes `N` after it computes the grid, and
// passes an unsigned `M` to the `int` parameter: the grid says nothing kpl may assume of
// either, and the race for a huge `N` is found.
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
__global__ void fill(int M, int N, float *C) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < M && y < N) {
        C[x * N + y] = x;
    }
}
void run(unsigned M, int N, float *C) {
    dim3 grid(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
    dim3 block(32, 32);
    N = N * 2;
    fill<<<grid, block>>>(M, N, C);
}
