// args: --local_size=8 --num_groups=2
// A two-thread annotation outside an assertion or invariant is refused.
kernel void foo(global int *A, int n) {
  A[get_global_id(0)] = __other_int(n) - n;
}
