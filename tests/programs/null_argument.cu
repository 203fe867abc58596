// The host passes `opt` as NULL at the first launch: the write to out[0] under
// `opt != NULL` never runs there, and the launch is race-free. The second launch passes a
// buffer: every thread then writes out[0], a race.
#include <stdlib.h>

__global__ void scale(float *out, const float *opt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (opt != NULL) {
            out[0] = opt[i];
        }
        out[i + 1] = 1.0f;
    }
}

int main() {
    float *d, *o;
    cudaMalloc(&d, 4097 * sizeof(float));
    cudaMalloc(&o, 4096 * sizeof(float));
    scale<<<16, 256>>>(d, NULL, 4096);
    scale<<<32, 128>>>(d, o, 4096);
    return 0;
}
