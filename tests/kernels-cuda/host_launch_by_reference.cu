//xfail:COMMAND_LINE_ERROR
//
//kpl cannot read this launch of `fill`: the block size is not a constant kpl can read
//
// `choose` takes the block size by reference and may change it: not a constant.
__global__ void fill(int *a) {
    a[threadIdx.x] = 1;
}
void choose(int &threads) {
    threads = 128;
}
int main() {
    int *d;
    int threads = 64;
    choose(threads);
    cudaMalloc(&d, 1024 * sizeof(int));
    fill<<<1, threads>>>(d);
    return 0;
}
