//xfail:NOT_ALL_VERIFIED
//--local_size=[32] --num_groups=[8]

// The same loop with a stride below the bound: a thread of the first groups reads more
// than one element, so the invariant is false and kpl must not verify it.
__kernel void k(__global float *y, __global float *z, int n)
{
  __requires(n == 1000);
  long m = n;
  long b = get_group_id(0);
  long t = get_local_id(0);
  for (long i = 32 * b; i < m - 1; i += 256) {
    __invariant(__read_implies(z, (__read_offset_bytes(z) / sizeof(float)) == 32 * b + t));
    if (m >= t + i + 2)
      y[t + i] = z[t + i];
  }
}
