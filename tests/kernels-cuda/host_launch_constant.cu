//pass
//
//launch read from the host code: grid 2, block 64
//the host code.s launch fixes `stride` = 1; 1 parameter stays free
//verified
//
// The launch and the stride come from main: with a stride of 1 every thread writes its
// own element (with a free stride, 0 would make them all write a[0]).
#include <cstdio>
__global__ void spread(int *a, int stride) {
    a[(blockIdx.x * blockDim.x + threadIdx.x) * stride] = threadIdx.x;
}
int main() {
    int *d;
    const int n = 128;
    cudaMalloc(&d, n * sizeof(int));
    int threads = 64;
    spread<<<n / threads, threads>>>(d, 1);
    cudaDeviceSynchronize();
    printf("%d\n", threads);
    return 0;
}
