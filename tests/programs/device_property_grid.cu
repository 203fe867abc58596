// A grid the GPU decides: `sms` is the device's multiprocessor count, which no reading of
// the program knows. `kpl verify` verifies the kernel for every grid; a command that runs
// one launch says where the grid comes from and takes one given with `--gridDim`.
__global__ void fill(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 1.0f;
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int sms = prop.multiProcessorCount;
    float *a;
    int n = 1024;
    cudaMalloc(&a, n * sizeof(float));
    fill<<<sms * 2, 128>>>(a, n);
    fill<<<prop.multiProcessorCount, 256>>>(a, n);
    return 0;
}
