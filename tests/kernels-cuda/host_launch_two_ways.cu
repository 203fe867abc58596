//xfail:COMMAND_LINE_ERROR
//
//the host code launches `fill` 2 ways \(grid 1 block 64; grid 2 block 32\)
__global__ void fill(int *a) {
    a[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    fill<<<1, 64>>>(d);
    fill<<<2, 32>>>(d);
    return 0;
}
