//xfail:COMMAND_LINE_ERROR
//
//kpl cannot read this launch of `fill`: the block size is not a constant kpl can read
//
// A launch in a host function template whose template argument is a constant kpl does not
// fold (a `constexpr` function's value): no instance is made, the template's launches are
// read as written, and its template parameter `N` is bound by nothing.
constexpr int pick() { return 128; }
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
    run<pick()>(d);
    return 0;
}
