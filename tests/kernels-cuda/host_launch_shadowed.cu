//xfail:COMMAND_LINE_ERROR
//
//kpl cannot read this launch of `fill`: the block size is not a constant kpl can read
//
// `BLOCK` in `run` is its parameter, not the file's constant.
const int BLOCK = 32;
__global__ void fill(int *a) {
    a[threadIdx.x] = 1;
}
void run(int *d, int BLOCK) {
    fill<<<1, BLOCK>>>(d);
}
int main() {
    int *d;
    cudaMalloc(&d, 1024 * sizeof(int));
    run(d, 512);
    return 0;
}
