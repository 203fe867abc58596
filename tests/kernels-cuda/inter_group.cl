//xfail:NOT_ALL_VERIFIED
//--local_size=16 --num_groups=2
//inter-group

// Both work-groups write the same elements of the global buffer.
__kernel void k(__global int *out) {
  out[get_local_id(0)] = get_group_id(0);
}
