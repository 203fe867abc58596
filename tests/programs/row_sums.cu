// A warp-per-row kernel with a strided loop, which the program launches with three block
// sizes: each launch is verified, and Houdini's rounds are spent on the first only (the
// candidates it did not keep there start off under the others).

__global__ void row_sums(float *sums, const float *rows, int n, int width) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row < n) {
        float s = 0.0f;
        for (int j = lane; j < width; j += 32)
            s += rows[row * width + j];
        sums[row * 32 + lane] = s;
    }
}

int main() {
    int n = 4096, width = 768;
    float *sums, *rows;
    cudaMalloc(&sums, n * 32 * sizeof(float));
    cudaMalloc(&rows, n * width * sizeof(float));
    int block_sizes[] = {64, 128, 256};
    for (int k = 0; k < 3; k++) {
        int b = block_sizes[k];
        row_sums<<<n * 32 / b, b>>>(sums, rows, n, width);
    }
    return 0;
}
