// crosscheck: mismatch
// args: --reference=axpy_ref --blockDim=8 --array-len=8 --assume=fma
// Under `--assume=fma` the kernel's `fmaf(a, x, y)` is `a * x + y`, and the reference
// subtracts: a real mismatch, replayed by `kpl run --fma-as-mul-add`.
__global__ void axpy(float *y, const float *x, float a) {
    int i = threadIdx.x;
    y[i] = fmaf(a, x[i], y[i]);
}

void axpy_ref(float *y, const float *x, float a) {
    for (int i = 0; i < 8; i++)
        y[i] = a * x[i] - y[i];
}
