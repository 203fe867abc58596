// crosscheck: mismatch
// args: --reference=scale_ref --array-len=20
// The program of two_launches.cu with a reference that adds 1: a mismatch under each launch,
// each launch's witness in a directory of its own, replayed under that launch.
template <int B>
__global__ void scale(float *y, const float *x, int n) {
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n)
        y[i] = 3.0f * x[i];
}

void scale_ref(float *y, const float *x, int n) {
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 3.0f + 1.0f;
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
