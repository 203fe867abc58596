//pass
//--local_size=64 --num_groups=4

// A binary barrier invariant: distinct threads of a group hold distinct values, read
// through the partner's own element (A[other(lid)]), which the partner accessed.
__kernel void distinct(__global int *out) {
  __local int A[64];
  A[get_local_id(0)] = get_local_id(0) * 2;
  __barrier_invariant_binary_1(A[get_local_id(0)] != A[__other_int(get_local_id(0))],
    get_local_id(0), __other_int(get_local_id(0)));
  barrier(CLK_LOCAL_MEM_FENCE);
  A[get_local_id(0)] = A[get_local_id(0)] + 1;
  __barrier_invariant_binary_1(A[get_local_id(0)] != A[__other_int(get_local_id(0))],
    get_local_id(0), __other_int(get_local_id(0)));
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = A[get_local_id(0)];
}
