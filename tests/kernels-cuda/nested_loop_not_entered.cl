//pass
//--local_size=[32] --num_groups=[4]

// A loop entered under a condition (thread 1 may not run it): its logs are then what they were
// at entry, and the function-wide invariant known there still holds after the loop
// (candidate 'a thread that did not enter logs nothing').
__kernel void k(__global double *A, __global double *y)
{
  int n = 128;
  int m = 128;
  long b0 = get_group_id(0);
  long t0 = get_local_id(0);
  double acc = 0;
  {
  for (long c0 = 32 * b0; c0 < n; c0 += 1048576) {
    for (long c1 = 0; c1 < m; c1 += 32) {
      if (n >= t0 + c0 + 1) {
        for (long c3 = 0; c3 <= 31; c3 += 1)
          acc += A[(t0 + c0)];
      }
    }
  }
  __function_wide_invariant(__read_implies(A, ((((((32) * (b0)) + (t0)) - (((__read_offset_bytes(A)) / (sizeof(double))) % (n))) % (1048576)) == (0))));
  }
}
