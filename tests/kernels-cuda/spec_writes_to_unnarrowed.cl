//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4 --no-inline

// Without a postcondition saying where it writes, a specification function's
// `__writes_to(p)` may have written another work item's element: the kernel's later read of
// its own element races with it.
void __spec_fill(__global int *p) {
  __writes_to(p);
}

__kernel void k(__global int *A, __global int *B) {
  __spec_fill(A);
  B[get_global_id(0)] = A[get_global_id(0)];
}
