// crosscheck: equivalent
// args: --reference=scale_ref --array-len=20
// A whole program that launches a kernel template twice, with 20 and with 12 elements:
// the kernel is crosschecked under each launch, with the size that launch passes.
template <int B>
__global__ void scale(float *y, const float *x, int n) {
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n)
        y[i] = 3.0f * x[i];
}

void scale_ref(float *y, const float *x, int n) {
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 3.0f;
}

int main() {
    float *x, *y;
    int n = 20;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    scale<8><<<(n + 7) / 8, 8>>>(y, x, n);
    scale<8><<<2, 8>>>(y, x, 12);
    return 0;
}
