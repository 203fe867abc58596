// crosscheck: inconclusive
// args: --reference=axpy_ref --blockDim=8 --array-len=8
// `fmaf` rounds once, `a * x + y` twice: kpl does not compute `fmaf` (an arbitrary float to
// it), so the interpreter's difference is no mismatch of the programs: inconclusive.
__global__ void axpy(float *y, const float *x, float a) {
    int i = threadIdx.x;
    y[i] = fmaf(a, x[i], y[i]);
}

void axpy_ref(float *y, const float *x, float a) {
    for (int i = 0; i < 8; i++)
        y[i] = a * x[i] + y[i];
}
