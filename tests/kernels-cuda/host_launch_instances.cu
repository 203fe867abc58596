//pass
//--kernel=halve<128>
//launch read from the host code: grid 2, block 128
//
// Two instances of one template, each launched once: the launch of `halve<64>` is read
// (it is another kernel), not taken for one kpl cannot read.
template <int B>
__global__ void halve(float *a) {
    a[blockIdx.x * B + threadIdx.x] = 0.0f;
}
int main() {
    float *d;
    halve<128><<<2, 128>>>(d);
    halve<64><<<4, 64>>>(d);
    return 0;
}
