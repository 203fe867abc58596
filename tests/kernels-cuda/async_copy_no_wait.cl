//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//error: possible .*race on tile

// async_copy.cl without its wait and barrier: the copy may still be writing `tile` while
// work-items read it.
__kernel void k(__global float *p, __global float *out) {
  __local float tile[64];
  event_t e = async_work_group_copy(tile, p + 64 * get_group_id(0), 64, 0);
  out[get_global_id(0)] = tile[(get_local_id(0) + 1) % 64];
}
