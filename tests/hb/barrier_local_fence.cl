//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1

// hb: race
// `barrier(CLK_LOCAL_MEM_FENCE)` orders local memory only: the global write before it and
// another work-item's read after it stay unordered, under happens-before as under SDV.

__kernel void k(__global int *g, __global int *out) {
  int t = get_local_id(0);
  g[t] = t;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[t] = g[(t + 1) % 64];
}
