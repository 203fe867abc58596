//pass
//--local_size=[8,4] --num_groups=[2,2] --global_offset=[100,7]
/* OpenCL's global work offset: `get_global_id` counts from it, `get_global_offset`
   gives it. */

__kernel void k(__global int *out) {
  __assert(get_global_offset(0) == 100 && get_global_offset(1) == 7 && get_global_offset(2) == 0);
  int x = get_global_id(0) - get_global_offset(0);
  int y = get_global_id(1) - get_global_offset(1);
  __assert(x >= 0 && x < 16 && y >= 0 && y < 8);
  out[y * 16 + x] = x + y;
}
