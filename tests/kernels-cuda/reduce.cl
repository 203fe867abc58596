//pass
//--local_size=64 --num_groups=8

// Work-group reduction in local memory.
__kernel void reduce(__global const int *in, __global int *out) {
  __local int s[64];
  unsigned lid = get_local_id(0);
  s[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned d = get_local_size(0) / 2; d > 0; d /= 2) {
    if (lid < d)
      s[lid] += s[lid + d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = s[0];
}
