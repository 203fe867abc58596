// crosscheck: mismatch
// args: --reference=clamp_ref --blockDim=4 --array-len=4
// The clamp without the kernel's precondition `lo <= hi`: where `lo > hi` the kernel
// gives `hi` and the reference `lo`.
__global__ void clamp_kern(int *x, int lo, int hi) {
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
