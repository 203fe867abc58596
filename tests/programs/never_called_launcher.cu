// A program as llm.c's dev/cuda files write them: each kernel has a launcher, the launcher
// of version 2 is named after its kernel (an overload: told apart by its number of
// arguments), the dispatcher leaves version 1 out under `#if`, and `n` also goes to a
// function template by value and through an instance `check<float>(...)`. The program never
// launches `scale_v1`; `scale2` is verified under each block size of `main`'s loop.
#define LEGACY 0
__global__ void scale_v1(float *x, int n) {
    x[threadIdx.x] = 2.0f * x[threadIdx.x];
}
__global__ void scale2(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
}
void scale1(float *x, int n, int block) {
    scale_v1<<<n / block, block>>>(x, n);
}
void scale2(float *x, int n, int block) {
    int grid = (n + block - 1) / block;
    scale2<<<grid, block>>>(x, n);
}
void scale(int version, float *x, int n, int block) {
    switch (version) {
#if LEGACY
    case 1: scale1(x, n, block); break;
#endif
    case 2: scale2(x, n, block); break;
    }
}
template <class T> void fill(T *x, T v, int count) { for (int i = 0; i < count; i++) x[i] = v; }
template <class T> bool check(const T *x, int count) { return count > 0; }
int main(int argc, char **argv) {
    int n = 256;
    float *h = (float *)malloc(n * sizeof(float));
    fill(h, 1.0f, n);
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    int blocks[] = {64, 128};
    for (int j = 0; j < 2; j++) {
        int block = blocks[j];
        scale(2, d, n, block);
    }
    check<float>(h, n);
    return 0;
}
