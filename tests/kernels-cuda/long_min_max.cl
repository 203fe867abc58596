//pass
//--local_size=[8] --num_groups=[2]

// OpenCL's `min`/`max` on `long` (and CUDA's `llmin`/`ullmax`, tests/kernels-cuda/
// long_min_max.cu): both words selected by one 64-bit comparison.
__kernel void k(__global long *A, long n)
{
  long i = get_global_id(0);
  long j = min(i, n);
  long m = max(i - 5, (long)0);
  __assert(j <= i);
  __assert(m >= 0);
  __assert(max(n, (long)-1) >= -1);
  __assert(min((long)-4294967296, (long)3) == (long)-4294967296);
  A[i] = j + m;
}
