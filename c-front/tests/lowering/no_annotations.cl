// args: --local_size=4 --num_groups=1 --no-annotations
// GPUVerify's --no-annotations: every source-level annotation is dropped, invariants in
// loop conditions included.
kernel void foo(global int *A, int j) {
  __requires(j == 0);
  for (int i = 0; __invariant(0), i < 5; i++) {
    __assert(i < 5);
    A[get_global_id(0) + j] = i;
  }
}
