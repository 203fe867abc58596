// args: --local_size=4
// A copy's count must be a constant of the launch (the copy is unrolled); so must a
// wait's count (the whole group waits).
__kernel void k(__global float *p, int n) {
  __local float tile[8];
  event_t e = async_work_group_copy(tile, p, n, 0);
  wait_group_events(get_local_id(0), &e);
}
