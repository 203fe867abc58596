//pass
//--local_size=64 --num_groups=8

// An async_work_group_copy between byte views copies bytes: the group's 64 floats
// (256 bytes) go into a local float array seen as chars; after the wait and a barrier
// every work-item reads its neighbour's float.

__kernel void k(__global float *p, __global float *out) {
  __local float mine[64];
  __global char *q = (__global char *)p;
  event_t e = async_work_group_copy((__local char *)mine, q + get_group_id(0) * 64 * sizeof(float), 64 * sizeof(float), 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = mine[(get_local_id(0) + 1) % 64];
}
