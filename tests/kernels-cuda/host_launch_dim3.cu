//pass
//
//launch read from the host code: grid \[4,4\], block \[16,16\]
//the host code.s launch fixes `width` = 64; 2 parameters stay free
//
// A two-dimensional launch from dim3 variables, and the row width the host passes.
#define W 64
__global__ void copy2d(float *out, const float *in, int width) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * width + x] = in[y * width + x];
}
int main() {
    float *a, *b;
    cudaMalloc(&a, W * W * sizeof(float));
    cudaMalloc(&b, W * W * sizeof(float));
    dim3 block(16, 16);
    dim3 grid(W / block.x, W / 16);
    copy2d<<<grid, block>>>(b, a, W);
    return 0;
}
