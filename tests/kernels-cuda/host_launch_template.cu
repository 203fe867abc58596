//pass
//
//launch read from the host code: grid 8, block 128
//
// A template kernel instantiated by its launch: the instance's launch is read too.
template <int BLOCK>
__global__ void halve(float *a) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    a[i] = a[i] / 2.0f;
}
int main() {
    float *d;
    const int n = 1024;
    cudaMalloc(&d, n * sizeof(float));
    halve<128><<<n / 128, 128>>>(d);
    return 0;
}
