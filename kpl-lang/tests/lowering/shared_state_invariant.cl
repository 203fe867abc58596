// args: --local_size=4 --num_groups=1
// A loop invariant that reads an array (GPUVerify's shared-state invariants) is refused
// with a diagnostic, not lowered into an invariant KPL cannot have.
kernel void foo(local int *A) {
  A[get_local_id(0)] = 0;
  for (int i = 0; __invariant(A[get_local_id(0)] == 0), i < 100; i++) {
  }
}
