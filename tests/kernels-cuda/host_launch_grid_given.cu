//pass
//--gridDim=[4,4]
//launch read from the host code: block \[32,32\] \(grid \[4,4\] from `--gridDim`\)
//kpl assumes
//
// The grid follows the matrix's size, read at run time: the command line gives it, the
// block comes from the host code, and the grid the host computes from `M` and `N` (which it
// passes to the kernel unchanged) says they are from 97 to 128. Without that, `x * N + y`
// wraps around for a huge `N` and two threads write one element.
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
__global__ void fill(int M, int N, float *C) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < M && y < N) {
        C[x * N + y] = x;
    }
}
void run(int M, int N, float *C) {
    const int TILE = 32;
    dim3 grid(CEIL_DIV(M, TILE), CEIL_DIV(N, TILE));
    dim3 block(TILE, TILE);
    fill<<<grid, block>>>(M, N, C);
}
