// crosscheck: equivalent
// args: --reference=saxpy_ref --blockDim=8 --param=n=12 --array-len=12
// SAXPY for every `a` (`--param` fixes only `n`): a grid-stride loop against the plain one.
__global__ void saxpy(float *y, const float *x, float a, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        y[i] = a * x[i] + y[i];
}

void saxpy_ref(float *y, const float *x, float a, int n) {
    for (int i = 0; i < n; i++)
        y[i] = y[i] + x[i] * a;
}
