// A program that runs a kernel at each block size of a constant array, passing the
// element itself to its host function (`run(block_sizes[j])`) and to a launch
// (`<<<..., sizes[j]>>>`): each launch is read with each size.
__global__ void scale(float *y, const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}

void run(float *y, const float *x, int n, int block_size) {
    scale<<<(n + block_size - 1) / block_size, block_size>>>(y, x, n);
}

int main() {
    int n = 1000;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    int block_sizes[] = {64, 256};
    for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
        run(y, x, n, block_sizes[j]);
    }
    int sizes[] = {32, 128};
    for (int j = 0; j < 2; j++) {
        scale<<<(n + sizes[j] - 1) / sizes[j], sizes[j]>>>(y, x, n);
    }
    return 0;
}
