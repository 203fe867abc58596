// crosscheck: equivalent
// args: --reference=axpy_ref --blockDim=8 --array-len=8 --assume=fma
// The pair of fma_axpy.cu under `--assume=fma` (contraction changes no result): `fmaf(a, b, c)`
// is read as `a * b + c`, and the two sides are equal as terms.
__global__ void axpy(float *y, const float *x, float a) {
    int i = threadIdx.x;
    y[i] = fmaf(a, x[i], y[i]);
}

void axpy_ref(float *y, const float *x, float a) {
    for (int i = 0; i < 8; i++)
        y[i] = a * x[i] + y[i];
}
