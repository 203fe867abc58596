//pass
//--local_size=[32] --num_groups=[8]

// A PPCG-style loop over a 64-bit counter, bounded by a 64-bit parameter: its stride is
// past the bound, so each thread reads one element. Only the counter's candidates (no
// lower than its start, a multiple of the step from it, a high word of 0) make the
// invariant inductive.
__kernel void k(__global float *y, __global float *z, int n, long m)
{
  __requires(n == 1000);
  __requires(m >= 2 & m <= n);
  long b = get_group_id(0);
  long t = get_local_id(0);
  for (long i = 32 * b; i < m - 1; i += 1048576) {
    __invariant(__read_implies(z, (__read_offset_bytes(z) / sizeof(float)) == 32 * b + t));
    if (m >= t + i + 2)
      y[t + i] = z[t + i];
  }
}
