//xfail:NOT_ALL_VERIFIED
//
//launch read from the host code: grid 1, block 32 \(2 launches of `spread`\)
//the host code.s launch fixes no parameter; 2 parameters stay free
//race on a
//
// Two launches agree on the launch but not on the stride, which stays free: a stride of
// 0 is a race (the host code passes 1 and 2, but kpl reads no more than constants).
const int BLOCK = 32;
__global__ void spread(int *a, int stride) {
    a[threadIdx.x * stride] = threadIdx.x;
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    spread<<<1, BLOCK>>>(d, 1);
    spread<<<1, BLOCK>>>(d, 2);
    return 0;
}
