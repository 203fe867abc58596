//xfail:COMMAND_LINE_ERROR
//
//kpl cannot read this launch of `fill`: the block size is not a constant kpl can read
//
// A launch in a host function template beside one kpl reads: the template's launches are
// read as a function's, but its template parameter `N` is not bound by the calls yet.
__global__ void fill(int *a) {
    a[threadIdx.x] = 1;
}
template <int N>
void run(int *d) {
    fill<<<1, N>>>(d);
}
int main() {
    int *d;
    cudaMalloc(&d, 1024 * sizeof(int));
    fill<<<1, 64>>>(d);
    run<128>(d);
    return 0;
}
