//pass
//--blockDim=[8] --gridDim=[1]

// CUDA's 64-bit `llmin`/`llmax`/`ullmin`/`ullmax`: the arguments converted to `long
// long` or `unsigned long long`, both words selected by one comparison.
__global__ void k(long long *A, long long n)
{
  long long i = threadIdx.x;
  long long j = llmin(i, n);
  unsigned long long u = ullmax((unsigned long long)i, 3ull);
  __assert(j <= i);
  __assert(u >= 3);
  // -1 as unsigned is the largest value: ullmin does not take it, llmin does.
  __assert(ullmin((unsigned long long)-1, 5ull) == 5);
  __assert(llmin(-1ll, 5ll) == -1);
  __assert(llmax(-4294967296ll, -4294967297ll) == -4294967296ll);
  A[i] = j + u;
}
