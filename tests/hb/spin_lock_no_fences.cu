//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=4

// hb: race --input=lock.json
// The same lock without fences (the bug BARRACUDA found in GPU-TM's hashtable): atomics
// alone order nothing, so two blocks' updates of `count` race although the lock is held.

__global__ void locked(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    count[0] = count[0] + 1;
    atomicExch(lock, 0);
  }
}
