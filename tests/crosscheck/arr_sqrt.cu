// crosscheck: equivalent
// args: --reference=cpu_arr_sqrt --array-len=64
// KLEE-CL's Listing 1 in CUDA, as a whole program: the launch and the size come from main.
#include <cmath>
#include <cstdlib>
__global__ void arr_sqrt_kern(float *out, const float *in, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size)
        out[i] = sqrtf(in[i]);
}

void cpu_arr_sqrt(float *out, const float *in, int size) {
    for (int i = 0; i < size; ++i)
        out[i] = sqrtf(in[i]);
}

int main() {
    const int n = 64;
    float *in = (float *)malloc(n * sizeof(float)), *cpuout = (float *)malloc(n * sizeof(float));
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cpu_arr_sqrt(cpuout, in, n);
    arr_sqrt_kern<<<4, 16>>>(d_out, d_in, n);
    return 0;
}
