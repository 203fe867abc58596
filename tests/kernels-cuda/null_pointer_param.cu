//pass
//--blockDim=64 --gridDim=2
//
// Pointer parameters compared with `NULL` (`bias ? ... : 0`, `!bias`, `p != nullptr`) and
// a shared array, which is never null; `__ldg` and the other cache-hinted loads and stores
// are plain accesses.
#include <stddef.h>
__global__ void k(float *out, const float *bias, const float *__restrict__ in) {
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = bias ? __ldg(&bias[threadIdx.x]) : 0.0f;
    __syncthreads();
    if (s != NULL && out != nullptr) {
        __stcs(&out[i], s[63 - threadIdx.x] + __ldcs(in + i));
    }
    if (!bias) {
        out[i] += 1.0f;
    }
}
