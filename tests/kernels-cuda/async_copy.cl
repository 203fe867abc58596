//pass
//--local_size=64 --num_groups=8

// Each group copies its 64 elements into local memory, waits, and after a barrier every
// work-item reads its neighbour's element.
__kernel void k(__global float *p, __global float *out) {
  __local float tile[64];
  event_t e = async_work_group_copy(tile, p + 64 * get_group_id(0), 64, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(get_local_id(0) + 1) % 64];
}
