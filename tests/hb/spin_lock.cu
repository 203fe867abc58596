//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=4

// hb: ok --input=lock.json
// A spin lock across blocks done right: the compare-and-swap that takes the lock is
// followed by a device-scope fence (an acquire), the exchange that frees it is preceded
// by one (a release), so each block's update of `count` happens after the previous one.

__global__ void locked(int *lock, int *count) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    count[0] = count[0] + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
