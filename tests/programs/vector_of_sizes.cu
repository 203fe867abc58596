// A program that tries each block size of a `std::vector` it never changes, by a range-`for`
// and by a counting loop up to `size()`: each launch is read with each size.
#include <vector>

__global__ void scale(float *y, const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}

int main() {
    int n = 1000;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    std::vector<int> block_sizes = {64, 256};
    for (int b : block_sizes) {
        scale<<<(n + b - 1) / b, b>>>(y, x, n);
    }
    std::vector<int> more{32, 128};
    for (int j = 0; j < more.size(); j++) {
        int m = more[j];
        scale<<<(n + m - 1) / m, m>>>(y, x, n);
    }
    return 0;
}
