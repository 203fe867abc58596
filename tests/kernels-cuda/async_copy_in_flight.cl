//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//error: possible .*race on tile

// A barrier does not complete a copy: only `wait_group_events` does, and it comes after
// the read here.
__kernel void k(__global float *p, __global float *out) {
  __local float tile[64];
  event_t e = async_work_group_copy(tile, p + 64 * get_group_id(0), 64, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0)];
  wait_group_events(1, &e);
}
