// args: --pointer-bitwidth=32 --local_size=64 --num_groups=1
// Barrier invariants go with the next barrier: unary ones with their instantiations,
// binary ones with pairs; __read_permission is a read of the element.
#define tid get_local_id(0)
kernel void foo(local int *A, local int *B) {
  A[tid] = tid;
  __barrier_invariant_2(A[tid] == tid, tid, (tid + 1) % 64);
  __barrier_invariant_binary_1(A[tid] != A[__other_int(tid)], tid, __other_int(tid));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid % 2 == 0) {
    B[tid] = A[(tid + 1) % 64];
  }
  __read_permission(int, B[tid]);
  __barrier_invariant_1(__implies(tid % 2 == 0, B[tid] == (tid + 1) % 64), tid);
  barrier(CLK_LOCAL_MEM_FENCE);
}
