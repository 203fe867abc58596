// crosscheck: mismatch
// args: --reference=hist_ref --blockDim=4 --array-len=hist=4,in=4
// The histogram whose last thread counts its element twice.
__global__ void hist_kern(unsigned *hist, const unsigned *in) {
    atomicAdd(&hist[in[threadIdx.x] % 4], threadIdx.x == 3 ? 2u : 1u);
}

void hist_ref(unsigned *hist, const unsigned *in) {
    for (int i = 0; i < 4; i++)
        hist[in[i] % 4] += 1;
}
