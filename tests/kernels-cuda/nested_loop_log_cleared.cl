//pass
//--local_size=[32] --num_groups=[4]

// PPCG's shape: an inner loop with barriers that does not access y clears y's logs only;
// the outer loop's access pattern for y must survive it (candidate 'a log the loop only clears').
__kernel void k(__global double *y, __global double *tmp)
{
  int n = 128;
  int m = 128;
  long b0 = get_group_id(0);
  long t0 = get_local_id(0);
  __local double s[32];
  double acc = 0;
  for (long c0 = 32 * b0; c0 < n; c0 += 1048576) {
    if (n >= t0 + c0 + 1)
      acc = y[t0 + c0];
    for (long c1 = 0; c1 < m; c1 += 32) {
      s[t0] = tmp[t0 + c1];
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      acc += s[0];
      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (n >= t0 + c0 + 1)
      y[t0 + c0] = acc;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
}
