// Run with --blockDim=4 --gridDim=1 (tests/schedules.rs).
// The CD paper's bintree (NFM 2013, Fig. 7), every access to the tree an atomic: thread 0
// makes the root, then each other thread inserts its own node. The bug: the empty child
// slot is read, then set by an exchange, not by a compare-and-swap, so a thread delayed
// between the two overwrites another's insertion and that node is lost.
#define NIL -1

__device__ int get(int *T, int i) { return atomicAdd(&T[i], 0); }

__global__ void bintree(int *T, const int *vals) {
    int tid = threadIdx.x;
    int val = vals[tid] & 255;
    int node = 3 * tid;
    atomicExch(&T[node], val);
    atomicExch(&T[node + 1], NIL);
    atomicExch(&T[node + 2], NIL);
    __syncthreads();
    if (tid != 0) {
        int curr = 0;
        while (true) {
            int slot = val < get(T, curr) ? curr + 1 : curr + 2;
            int child = get(T, slot);
            if (child == NIL) {
                atomicExch(&T[slot], node);
                break;
            }
            curr = child;
        }
    }
    __syncthreads();
    // The tree is connected: each thread finds its node from the root.
    int curr = 0;
    while (curr != node && curr != NIL)
        curr = T[val < T[curr] ? curr + 1 : curr + 2];
    __assert(curr == node);
}
