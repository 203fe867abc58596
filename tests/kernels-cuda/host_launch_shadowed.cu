//pass
//
//launch read from the host code: grid 1, block 512
//
// `BLOCK` in `run` is its parameter, which main passes 512, not the file's constant 32.
const int BLOCK = 32;
__global__ void fill(int *a) {
    a[threadIdx.x] = 1;
}
void run(int *d, int BLOCK) {
    fill<<<1, BLOCK>>>(d);
}
int main() {
    int *d;
    cudaMalloc(&d, 1024 * sizeof(int));
    run(d, 512);
    return 0;
}
