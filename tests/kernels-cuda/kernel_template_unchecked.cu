//xfail:TIMEOUT
//
//launch at line 27: grid 1, block 64\): verified
//kernel `square`\): inconclusive: `square` is a kernel template of which kpl reads no instance
//
// A kernel template launched from a host function template whose type argument kpl cannot
// deduce (the argument is a call's result): no instance of either is made, so the kernel
// template is not checked, and the file is not verified (inconclusive) though its other
// kernel is.
template <class T>
__global__ void square(T *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * x[i];
}
__global__ void total(float *x, float *out) {
    if (threadIdx.x == 0) out[0] = x[0];
}
template <class T>
void run(T *x, int n) {
    square<<<(n + 63) / 64, 64>>>(x, n);
}
float *buffer;
float *pick() { return buffer; }
int main() {
    float *x, *out;
    cudaMalloc(&buffer, 256 * sizeof(float));
    total<<<1, 64>>>(x, out);
    run(pick(), 256);
    return 0;
}
