//pass
//--gridDim=16 --kernel=tile<64>
//launch read from the host code: block 64 \(grid 16 from `--gridDim`\)
//\(launch at line [0-9]+: grid 16, block 64\): verified
//
// Template arguments and the block size named by the launching function's local
// constants, declared again in each branch: each launch is of the instance its branch's
// constants make, with its own block (`tile<64>`'s is 64; a block of 256 threads would
// write past its 64 elements of `s`).
template <int TILE>
__global__ void tile(float *a) {
    __shared__ float s[TILE];
    s[threadIdx.x] = a[blockIdx.x * TILE + threadIdx.x];
    __syncthreads();
    a[blockIdx.x * TILE + threadIdx.x] = s[TILE - 1 - threadIdx.x];
}
void run(float *a, int n) {
    if (n > 4096) {
        const unsigned TILE = 256;
        dim3 block(TILE);
        tile<TILE><<<n / TILE, block>>>(a);
    } else {
        const unsigned TILE = 64;
        dim3 block(TILE);
        tile<TILE><<<n / TILE, block>>>(a);
    }
}
