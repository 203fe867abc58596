//xfail:NOT_ALL_VERIFIED
//
//launch at line 14: grid 2, block 32\): verified
//launch at line 14: grid 1, block 64\): race
//
// The block size reaches the launch through `run`'s parameter, from two calls in main:
// the kernel is verified under each. Lanes 32 apart write one element, so the block of
// 64 races.
__global__ void fold(int *a, int n) {
    a[blockIdx.x * 32 + threadIdx.x % 32] = n + threadIdx.x;
}
void run(int *d, int threads) {
    int blocks = 64 / threads;
    fold<<<blocks, threads>>>(d, threads);
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    run(d, 32);
    run(d, 64);
    return 0;
}
