//xfail:NOT_ALL_VERIFIED
//--local_size=8 --num_groups=2 --global_offset=4
//this assertion might not hold
/* The offset moves every global id: the last work-item's is 19, not 15. */

__kernel void k(__global int *out) {
  __assert(get_global_id(0) < 16);
  out[get_local_id(0) + 8 * get_group_id(0)] = 1;
}
