//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//possible write-write race on mine

// A byte-level copy is in flight until its wait: each work-item's write to its float of
// the destination races with the group's copy of those bytes.

__kernel void k(__global float *p, __global float *out) {
  __local float mine[64];
  __global char *q = (__global char *)p;
  event_t e = async_work_group_copy((__local char *)mine, q + get_group_id(0) * 64 * sizeof(float), 64 * sizeof(float), 0);
  mine[get_local_id(0)] = 0.0f;
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = mine[(get_local_id(0) + 1) % 64];
}
