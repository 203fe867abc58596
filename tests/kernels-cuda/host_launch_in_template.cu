//pass
//
//launch at line 13: grid 1, block 128\): verified
//
// A launch in a host function template: the template is instantiated by its call
// (`run<128>`), and the instance's launch gives the block size its template argument
// binds.
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
    run<128>(d);
    return 0;
}
