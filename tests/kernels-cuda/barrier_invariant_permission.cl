//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1
//insufficient permission may be held for evaluation of this barrier invariant

// A barrier invariant may read only elements its thread accessed since the previous
// barrier: thread 0's store to A[0] is not known to the others when they reach it.
__kernel void permission(__global int *out) {
  __local int A[64];
  A[get_local_id(0)] = 0;
  __barrier_invariant_1(A[get_local_id(0)] == 0, get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  A[get_local_id(0)] = get_local_id(0);
  __barrier_invariant_1(A[0] == 0, get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
}
