//pass
//--local_size=[32] --num_groups=[8]

// A PPCG-style loop over a 64-bit counter, bounded by a 64-bit value: its stride is
// past the bound, so each thread reads one element. The counter's candidate (no lower
// than its start), beside the low word's stride that the inference over words finds,
// makes the invariant inductive; without it this was a false alarm.
__kernel void k(__global float *y, __global float *z, int n)
{
  __requires(n == 1000);
  long m = n;
  long b = get_group_id(0);
  long t = get_local_id(0);
  for (long i = 32 * b; i < m - 1; i += 1048576) {
    __invariant(__read_implies(z, (__read_offset_bytes(z) / sizeof(float)) == 32 * b + t));
    if (m >= t + i + 2)
      y[t + i] = z[t + i];
  }
}
