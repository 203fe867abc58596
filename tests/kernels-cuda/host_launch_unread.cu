//xfail:COMMAND_LINE_ERROR
//
//the host code launches `fill` here in a way kpl does not read yet
//
// One launch kpl reads, and one through the runtime's cudaLaunchKernel, which could
// launch the kernel otherwise: the host code does not decide the launch.
__global__ void fill(int *a) {
    a[threadIdx.x] = 1;
}
int main() {
    int *d;
    cudaMalloc(&d, 1024 * sizeof(int));
    fill<<<1, 64>>>(d);
    void *args[] = { &d };
    cudaLaunchKernel((void *)fill, dim3(1), dim3(128), args, 0, 0);
    return 0;
}
