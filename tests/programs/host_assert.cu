// A host `assert` before a launch: where its condition is false in a launch context the
// program aborts before launching (the context is not verified); where it is false in
// every context the kernel is never launched (llm.c's `layernorm_backward9`, whose
// `assert(C % (32 * x128::size) == 0)` fails for its `main`'s `C = 1600`).
#include <assert.h>

__global__ void fill(int *a, int n) {
    if (n % 256 != 0) __trap();
    a[threadIdx.x] = 1;
}

__global__ void never(int *a, int n) {
    if (n % 256 != 0) __trap();
    a[threadIdx.x] = 2;
}

void run(int *d, int n, int b) {
    assert(n % 256 == 0 && "n must be a multiple of 256");
    fill<<<1, b>>>(d, n);
}

void run_never(int *d, int n) {
    assert(n % 256 == 0);
    never<<<1, 64>>>(d, n);
}

int main() {
    int *d;
    cudaMalloc(&d, 1024 * sizeof(int));
    run(d, 1600, 64);
    run(d, 512, 128);
    run_never(d, 1600);
    return 0;
}
