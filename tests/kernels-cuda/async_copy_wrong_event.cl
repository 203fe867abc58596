//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//error: possible .*race on b

// Two copies with events of their own; the wait names only the first, so the second may
// still be writing `b` after the barrier.
__kernel void k(__global float *p, __global float *q, __global float *out) {
  __local float a[64];
  __local float b[64];
  event_t ea = async_work_group_copy(a, p + 64 * get_group_id(0), 64, 0);
  event_t eb = async_work_group_copy(b, q + 64 * get_group_id(0), 64, 0);
  wait_group_events(1, &ea);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[get_local_id(0)] + b[get_local_id(0)];
}
