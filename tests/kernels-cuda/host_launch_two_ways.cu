//xfail:NOT_ALL_VERIFIED
//
//launch at line 14: grid 2, block 32\): verified
//launch at line 15: grid 1, block 64\): race
//
// Two launches of one kernel: each is verified under its own launch. Lanes 32 apart
// write one element, so the block of 64 races and the blocks of 32 do not.
__global__ void fold(int *a) {
    a[blockIdx.x * 32 + threadIdx.x % 32] = threadIdx.x;
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    fold<<<2, 32>>>(d);
    fold<<<1, 64>>>(d);
    return 0;
}
