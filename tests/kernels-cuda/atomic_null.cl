//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=2
//error: possible null pointer access for work item

// An atomic through a literal null pointer is a null pointer access (confirmed), as a
// load or `memcpy` through one is.
kernel void k(global int *A, int use_null) {
  if (use_null)
    atomic_add((global int *)0, 1);
  else
    atomic_add(&A[0], 1);
}
