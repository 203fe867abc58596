//pass
//--local_size=32 --num_groups=2

// An assumption may relate the two threads of a pair, as GPUVerify's may (the AMD SDK's
// BinarySearch assumes an ordering between `upperBound` and `__other_int(upperBound)`):
// here the indices the threads read are assumed distinct, so their writes cannot race.
// A kernel's precondition may be such a relation too.

kernel void k(global int *A, global int *idx, int n) {
  __requires(n == __other_int(n));
  int i = idx[get_global_id(0)];
  __assume(__implies(get_global_id(0) != __other_int(get_global_id(0)), i != __other_int(i)));
  A[i] = n + get_global_id(0);
}
