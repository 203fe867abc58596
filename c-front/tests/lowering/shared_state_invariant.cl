// args: --local_size=8 --num_groups=2
// GPUVerify's shared-state loop invariants: an invariant may read arrays (the thread's
// view, not an access); an element indexed by the partner's values alone
// (`A[__other_int(i)]`) is read in the partner's view, `other(A[i])`, as GPUVerify's
// arrays are one memory for both threads. A `__function_wide_invariant` that reads an
// array joins every loop's invariants.
__kernel void k(__local int *A, __global int *B) {
  A[get_local_id(0)] = get_local_id(0);
  B[get_global_id(0)] = 0;
  for (int i = 0;
       __invariant(__implies(__same_group, A[get_local_id(0)] != A[__other_int(get_local_id(0))])),
       __invariant(A[get_local_id(0) + 0 * __other_int(get_local_id(0))] >= 0),
       i < 4; i++) {
    A[get_local_id(0)] = A[get_local_id(0)] + 1;
  }
  while (B[get_global_id(0)] < 3) {
    B[get_global_id(0)]++;
  }
  __function_wide_invariant(B[get_global_id(0)] <= 3);
}
