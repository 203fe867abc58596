//xfail:COMMAND_LINE_ERROR
//
//kpl cannot read this launch of `fill`: the block size is not a constant kpl can read
//needs a launch
//
// The block size is read at run time: the host code does not decide the launch.
#include <cstdlib>
__global__ void fill(int *a) {
    a[threadIdx.x] = 1;
}
int main(int argc, char **argv) {
    int *d;
    int threads = 64;
    if (argc > 1) threads = atoi(argv[1]);
    cudaMalloc(&d, 1024 * sizeof(int));
    fill<<<1, threads>>>(d);
    return 0;
}
