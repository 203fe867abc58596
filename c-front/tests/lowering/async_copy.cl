// args: --local_size=4 --num_groups=2
// `async_work_group_copy`: the group copies, element e by the work-item whose linear id is
// (e - 1) mod 4, unrolled; the copy is reached by the whole group (a barrier that orders
// no memory) and in flight until `wait_group_events`: after a barrier before the wait
// its accesses are made again.
__kernel void k(__global float *p) {
  __local float tile[8];
  event_t e = async_work_group_copy(tile, p + 8 * get_group_id(0), 8, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  wait_group_events(1, &e);
  p[get_global_id(0)] = tile[get_local_id(0)];
}
