//pass
//
//the host code.s launch fixes `n` = -3; 1 parameter stays free
//
// A 64-bit parameter is fixed too (both its words): with `n` free, n != -3 would race.
__global__ void only(int *a, long n) {
    if (n != -3) {
        a[0] = threadIdx.x;
    }
}
int main() {
    int *d;
    only<<<1, 32>>>(d, -3);
    return 0;
}
