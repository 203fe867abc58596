//xfail:NOT_ALL_VERIFIED
//--local_size=32 --num_groups=1
//nested_requires_checked.cl:13:5: error: this assertion might not hold

// A `__requires` after the first statements that names a parameter the kernel assigns is
// no precondition: it is checked where it stands, and here it fails.

kernel void k(global int *A, int n) {
  __requires(n >= 0);
  int t = get_local_id(0);
  n = 3;
  {
    __requires(n == 2);
    A[t] = n;
  }
}
