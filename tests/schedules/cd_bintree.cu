// Run with --blockDim=4 --gridDim=1 (tests/schedules.rs).
// The CD paper's bintree (NFM 2013, Fig. 7) without its bug (`cd_bintree_lost.cu`): a node is
// linked into an empty child slot by a compare-and-swap, and a thread that loses the race
// for the slot goes on from the node that won it. Every schedule keeps every node; the
// trees differ between schedules (the paper's false positive of comparing final states).
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
            int child = atomicCAS(&T[slot], NIL, node);
            if (child == NIL)
                break;
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
