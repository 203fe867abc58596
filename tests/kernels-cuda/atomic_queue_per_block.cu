//pass
//--blockDim=64 --gridDim=4

// Per-block queues in one global array: block b appends at `out[b * 4096 + slot]`, its
// slots handed out by its own counter `tail[b]` and checked below 4096. No two threads get
// one slot of a block, in any iterations, and the blocks' parts do not overlap: kpl infers
// that what a thread wrote is at a slot it took, moved by its block's offset, and inside
// its block's part.

__global__ void append(const int *in, int *out, unsigned *tail, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        if (in[blockIdx.x * n + i] > 0) {
            unsigned pos = atomicAdd(&tail[blockIdx.x], 1);
            if (pos < 4096)
                out[blockIdx.x * 4096 + pos] = i;
        }
    }
}
