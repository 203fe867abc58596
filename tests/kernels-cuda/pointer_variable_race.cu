//xfail:NOT_ALL_VERIFIED
//--gridDim=1 --blockDim=64
//possible write-atomic race on next

// Thread 0 resets the pointer variable's storage while the others add to it atomically.

__device__ char *next;

__global__ void bump(unsigned int n) {
  if (threadIdx.x == 0) {
    *(unsigned int *)&next = 0;
  } else {
    atomicAdd((unsigned int *)&next, n);
  }
}
