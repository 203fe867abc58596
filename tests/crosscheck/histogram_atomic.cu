// crosscheck: equivalent
// args: --reference=hist_ref --blockDim=4 --array-len=hist=4,in=4
// An integer histogram with atomicAdd against the loop: the order of the atomics does not
// change a sum, so their final values are followed exactly; each element's bin is a
// symbolic index, one path per bin.
__global__ void hist_kern(unsigned *hist, const unsigned *in) {
    atomicAdd(&hist[in[threadIdx.x] % 4], 1u);
}

void hist_ref(unsigned *hist, const unsigned *in) {
    for (int i = 0; i < 4; i++)
        hist[in[i] % 4] += 1;
}
