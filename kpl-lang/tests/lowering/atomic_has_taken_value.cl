// args: --local_size=16 --num_groups=1
// GPUVerify's `__atomic_has_taken_value(counter, offset, value)`: in ordinary code an
// arbitrary value (its operands evaluated); kpl does not model it in annotations
// (access_predicates_misplaced.cl).
kernel void k(global unsigned *c, global int *A, int n) {
  volatile int x = __atomic_has_taken_value(c, 0, A[n]);
}
