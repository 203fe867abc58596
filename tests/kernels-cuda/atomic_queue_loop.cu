//pass
//--blockDim=64 --gridDim=4

// Stream compaction into one global queue: every thread appends the positions it keeps,
// in a grid-stride loop, at slots an atomic counter hands out (while there is room). No two threads ever get one
// slot, in any iterations, so the writes to `queue` never meet. kpl infers the invariant
// (what a thread has written is at a value its additions gave it) and, as GPUVerify does,
// assumes the additions never wrap around (the verdict says so).

__global__ void compact(const int *in, int *queue, unsigned *tail, unsigned capacity, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (in[i] > 0) {
            unsigned pos = atomicAdd(tail, 1);
            if (pos < capacity)
                queue[pos] = i;
        }
    }
}
