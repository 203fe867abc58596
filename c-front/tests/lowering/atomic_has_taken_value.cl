// args: --pointer-bitwidth=32 --local_size=16 --num_groups=1
// GPUVerify's `__atomic_has_taken_value(counter, offset, value)`: in ordinary code an
// arbitrary value (its operands evaluated); in an annotation KPL's `taken(c, element,
// value)`, the byte offset divided by the counter's element size. `__write_offset_bytes`
// of a `char` array counts one byte per element, of a `short` array two.
kernel void k(global unsigned *c, global int *A, global char *B, global short *H, int n) {
  volatile int x = __atomic_has_taken_value(c, 0, A[n]);
  for (int i = 0;
       __invariant(__write_implies(B, __atomic_has_taken_value(c, 4, __write_offset_bytes(B)))),
       __invariant(__write_implies(H, __atomic_has_taken_value(c, 0, __write_offset_bytes(H) / sizeof(short)))),
       i < n; i++) {
    unsigned s = atomic_inc(c + 1);
    B[s] = 1;
    H[atomic_inc(c)] = 2;
  }
}
