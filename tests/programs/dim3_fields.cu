// Launch sizes as older CUDA programs (Rodinia) write them: two `dim3`s in one declaration,
// and `dim3`s set field by field. A field set once, before the launch, in the `dim3`'s own
// block is that value; one set from a value read at run time is any size; one never set
// is 1.
#include <cstdlib>
#define BLOCK_SIZE 192

__global__ void init(int n, float *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = 0.0f;
}

// Only its columns are told apart: with more than one row of groups, two groups write
// one element.
__global__ void columns(float *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] = (float)blockIdx.y;
}

// `const dim3`s: the same. Verified.
__global__ void twice(int n, float *v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = 2.0f * v[i];
}

int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    float *v;
    cudaMalloc(&v, n * sizeof(float));
    dim3 Dg(n / BLOCK_SIZE), Db(BLOCK_SIZE);
    init<<<Dg, Db>>>(n, v);
    dim3 threads;
    threads.x = 256;
    dim3 blocks;
    blocks.x = n / 256;
    blocks.y = atoi(argv[2]);
    columns<<<blocks, threads>>>(v);
    const dim3 g2((n + 127) / 128, 1), b2(128);
    twice<<<g2, b2>>>(n, v);
    return 0;
}
