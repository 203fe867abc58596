// args: --local_size=64 --num_groups=1
// A barrier invariant with no barrier after it, one with side effects, a wrong count of
// instantiations, and an instantiation that reads an array.
kernel void foo(local int *A, global int *g) {
  int x = 0;
  __barrier_invariant_1(A[get_local_id(0)] == x++, get_local_id(0));
  __barrier_invariant_2(A[get_local_id(0)] == 0, get_local_id(0));
  __barrier_invariant_1(A[get_local_id(0)] == 0, A[0]);
  __barrier_invariant_x(A[0] == 0, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  __barrier_invariant_1(A[get_local_id(0)] == 0, get_local_id(0));
}
