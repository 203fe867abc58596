//pass
//--local_size=32 --num_groups=4

// A grid-stride loop with a 64-bit counter and index (and a 64-bit product doubling each
// iteration): race-free, as with an int counter.
__kernel void k(__global int *A, int n)
{
  long j = 1;
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
    A[i] = (int)(i * 2);
    j *= 2;
  }
}
