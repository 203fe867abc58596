// args: --blockDim=64 --gridDim=1
// CUDA's warp intrinsics become KPL's `warp` statement: shuffles take the mask, the value,
// the lane (or delta) and the width (32 when not given); the mask-less forms take the full
// warp (`__all` stays GPUVerify's annotation); `__reduce_min_sync` of an `int` is signed; a 64-bit value is shuffled word by word from one lane.
__global__ void k(float *f, unsigned *u, long long *l) {
  float v = f[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  v += __shfl_xor_sync(0xffffffff, v, 1, 8);
  v += __shfl_up(v, 2);
  int lane0 = __shfl_sync(__activemask(), threadIdx.x, 0);
  unsigned b = __ballot_sync(0xffff, v > 0.0f);
  if (__all_sync(0xffffffff, b != 0) && __any_sync(0xffffffff, lane0 == 3))
    u[threadIdx.x] = b;
  long long w = __shfl_sync(0xffffffff, l[threadIdx.x], 5);
  l[threadIdx.x] = w;
  int lo = __reduce_min_sync(0xffffffff, (int)threadIdx.x - 3);
  u[0] = __reduce_add_sync(0xffffffff, b) + __reduce_max_sync(0xff, b) + lo;
  f[threadIdx.x] = v;
}
