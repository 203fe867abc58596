// crosscheck: equivalent
// args: --reference=relu_ref --blockDim=8 --array-len=8
// A ReLU with a float branch in the reference and a conditional in the kernel: the
// search follows float comparisons exactly (the solver's IEEE 754 arithmetic), `-0.0`
// and NaNs included, and proves `x + x` in the kernel equal to `2 * x` in the reference.
__global__ void relu_kern(float *y, const float *x) {
    int i = threadIdx.x;
    float v = x[i];
    y[i] = v > 0.0f ? v + v : 0.0f;
}

void relu_ref(float *y, const float *x) {
    for (int i = 0; i < 8; i++) {
        if (x[i] > 0.0f)
            y[i] = 2.0f * x[i];
        else
            y[i] = 0.0f;
    }
}
