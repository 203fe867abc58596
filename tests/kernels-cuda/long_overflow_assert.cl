//xfail:NOT_ALL_VERIFIED
//--local_size=1 --num_groups=1
//this assertion might not hold

// a + 1 > a fails for the largest long: the witness is a = 2^63 - 1 (a_hi = 2147483647,
// a_lo = 4294967295), which a 32-bit model of `long` could not show.
__kernel void k(__global int *out, long a)
{
  __assert(a + 1 > a);
  out[get_global_id(0)] = 1;
}
