// crosscheck: equivalent
// args: --reference=clamp_ref --blockDim=4 --array-len=4
// Integer clamping with data-dependent branches: the kernel's `min`/`max` against the
// reference's `if`s, for every `lo <= hi` (the kernel's precondition: inputs outside it
// are no executions of the kernel); the search explores the reference's paths.
__global__ void clamp_kern(int *x, int lo, int hi) {
    __requires(lo <= hi);
    int i = threadIdx.x;
    x[i] = min(max(x[i], lo), hi);
}

void clamp_ref(int *x, int lo, int hi) {
    for (int i = 0; i < 4; i++) {
        if (x[i] < lo)
            x[i] = lo;
        else if (x[i] > hi)
            x[i] = hi;
    }
}
