//pass
//--local_size=32 --num_groups=4

// Local memory passed as a kernel argument (`__local` pointer): one per work-group.
__kernel void rotate(__global int *data, __local int *tmp) {
  int l = get_local_id(0);
  int g = get_global_id(0);
  tmp[l] = data[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[g] = tmp[(l + 1) % 32];
}
