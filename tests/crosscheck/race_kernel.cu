// crosscheck: defect
// args: --reference=ref --blockDim=8 --array-len=8
// A kernel that computes the right sums on the interpreter's schedule but races: each
// thread adds its neighbour's element without a barrier between the read and the write.
__global__ void k(int *a) {
    int i = threadIdx.x;
    if (i > 0)
        a[i] = a[i] + a[i - 1];
}

void ref(int *a) {
    for (int i = 7; i > 0; i--)
        a[i] = a[i] + a[i - 1];
}
