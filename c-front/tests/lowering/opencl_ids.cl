// args: --local_size=[8,8] --num_groups=[4,2]
__kernel void k(__global int *out, __local int *scratch) {
  int gx = get_global_id(0);
  int gy = get_global_id(1);
  scratch[get_local_id(1) * get_local_size(0) + get_local_id(0)] = gx;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[gy * get_global_size(0) + gx] = get_group_id(0) + get_num_groups(1);
}
