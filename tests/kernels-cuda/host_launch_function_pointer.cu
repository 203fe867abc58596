//xfail:COMMAND_LINE_ERROR
//
//kpl cannot read this launch of `fill`: the block size is not a constant kpl can read
//
// `run` is also called through a pointer, with arguments kpl does not see: its
// parameter is not a constant.
__global__ void fill(int *a) {
    a[threadIdx.x] = 1;
}
void run(int *d, int threads) {
    fill<<<1, threads>>>(d);
}
int main() {
    int *d;
    cudaMalloc(&d, 1024 * sizeof(int));
    run(d, 64);
    void (*f)(int *, int) = run;
    f(d, 128);
    return 0;
}
