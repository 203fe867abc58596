//xfail:NOT_ALL_VERIFIED
//
//launch read from the host code: grid 2, block 64
//the host code.s launch fixes `stride` = 0; 1 parameter stays free
//write-write race on a\[0\]
//
// The same kernel launched with a stride of 0: every thread writes a[0].
__global__ void spread(int *a, int stride) {
    a[(blockIdx.x * blockDim.x + threadIdx.x) * stride] = threadIdx.x;
}
int main() {
    int *d;
    cudaMalloc(&d, 128 * sizeof(int));
    spread<<<2, 64>>>(d, 0);
    return 0;
}
