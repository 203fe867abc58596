//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
//error: possible write-write race on out\[

// As `atomic_queue_per_block.cu`, but slots are checked below 8192 while the parts are
// 4096 long: block 0's slot 5000 and block 1's slot 904 are one element.

__global__ void append(const int *in, int *out, unsigned *tail, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        if (in[blockIdx.x * n + i] > 0) {
            unsigned pos = atomicAdd(&tail[blockIdx.x], 1);
            if (pos < 8192)
                out[blockIdx.x * 4096 + pos] = i;
        }
    }
}
