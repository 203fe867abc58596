//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
//write-write race
/* Every lane takes lane 0's thread index from a broadcast shuffle and writes there:
   the 32 threads of a warp write one element. */
__global__ void broadcast_write(int *out) {
  int leader = __shfl_sync(0xffffffff, (int)threadIdx.x, 0);
  out[leader] = threadIdx.x;
}
