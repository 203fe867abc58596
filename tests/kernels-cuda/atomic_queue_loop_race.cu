//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=4
//error: possible write-write race on queue\[

// As `atomic_queue_loop.cu`, but the slot wraps at 64: two threads that got slots 64 apart
// write one element.

__global__ void compact(const int *in, int *queue, unsigned *tail, unsigned capacity, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (in[i] > 0) {
            unsigned pos = atomicAdd(tail, 1) % 64;
            if (pos < capacity)
                queue[pos] = i;
        }
    }
}
