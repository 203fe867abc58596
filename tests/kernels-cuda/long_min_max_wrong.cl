//xfail:NOT_ALL_VERIFIED
//--local_size=[8] --num_groups=[2]
//assertion might not hold

// A false claim about a 64-bit `min`: it is `n` for the threads whose id is above `n`.
__kernel void k(__global long *A, long n)
{
  long i = get_global_id(0);
  long j = min(i, n);
  __assert(j == i);
  A[i] = j;
}
