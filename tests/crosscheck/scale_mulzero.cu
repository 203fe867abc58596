// crosscheck: mismatch
// args: --reference=ref --blockDim=16 --kernel-args=k,16 --array-len=16
// KLEE-CL's `x * 0` case (Bullet's soft body): the reference adds a term that is always
// multiplied by zero; the kernel leaves it out. Equal only under `--assume=mul-zero`
// (for an infinite or NaN `v[i]`, `v[i] * 0` is NaN).
__global__ void k(float *p, const float *v, int n) {
    int i = threadIdx.x;
    if (i < n)
        p[i] = p[i] * 2.0f;
}

void ref(float *p, const float *v, int n) {
    float damping = 0.0f;
    for (int i = 0; i < n; i++)
        p[i] = p[i] * 2.0f + v[i] * damping;
}
