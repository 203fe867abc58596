// crosscheck: mismatch
// args: --reference=relu_ref --blockDim=8 --array-len=8
// The ReLU as `fmaxf(x, 0)` against a branch on `x >= 0`: equal on every number but
// -0.0, which the branch keeps and `fmaxf` makes +0.0. No random input finds it; the
// solver, with floats exact, does.
__global__ void relu_kern(float *y, const float *x) {
    int i = threadIdx.x;
    y[i] = fmaxf(x[i], 0.0f);
}

void relu_ref(float *y, const float *x) {
    for (int i = 0; i < 8; i++)
        y[i] = x[i] >= 0.0f ? x[i] : 0.0f;
}
