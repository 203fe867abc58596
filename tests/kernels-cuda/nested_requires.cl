//pass
//--local_size=32 --num_groups=1

// PPCG writes a kernel's preconditions in a nested block after its first statements.
// GPUVerify takes every `__requires` as a precondition wherever it stands; so does kpl
// when the block runs unconditionally and the condition names only parameters the kernel
// never assigns. The function-wide invariant ends that block, as PPCG writes it.

kernel void k(global int *A, int n) {
  __requires(n >= 0);
  int t = get_local_id(0);
  {
    __requires(n == 2);
    for (int i = 0; i < 4; i++) {
      A[t * n + (i & 1)] = i;
    }
    __function_wide_invariant(__write_implies(A, __write_offset_bytes(A) / sizeof(int) / 2 == t));
  }
}
