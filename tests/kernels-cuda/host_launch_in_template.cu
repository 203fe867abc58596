//xfail:COMMAND_LINE_ERROR
//
//the host code launches `fill` here in a way kpl does not read yet
//
// A launch in a host function template (not read yet) beside one kpl reads.
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
