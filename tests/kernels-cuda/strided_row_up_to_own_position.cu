//pass
//--blockDim=256 --gridDim=4 --kernel-args=rows,96,1024

// Each warp reads, then writes, its row up to its own position (`i <= pos`, `pos < T`),
// its lanes 32 apart, after an early return (llm.c's autoregressive softmax): race-free
// because every `i` stays in the row. It needs the counter's bound past the guard by less
// than its step (`i <= pos + 32`) and the logged write within the row's first `pos + 1`
// elements (a `<=` guard's contiguous range).

__global__ void rows(float *out, const float *inp, int N, int T) {
    int lane = threadIdx.x % 32;
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= N * T) return;
    int pos = row % T;
    const float *x = inp + row * T;
    float m = 0.0f;
    for (int i = lane; i < pos / 4; i += 32) {
        m = fmaxf(m, x[i]);
    }
    for (int i = lane; i <= pos; i += 32) {
        *(out + row * T + i) = x[i] * m;
    }
}
