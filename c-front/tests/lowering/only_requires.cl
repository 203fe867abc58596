// args: --local_size=4 --num_groups=1 --only-requires
// GPUVerify's --only-requires: every annotation but `__requires` is dropped.
kernel void foo(global int *A, int j) {
  __requires(j == 0);
  for (int i = 0; __invariant(0), i < 5; i++) {
    __assert(i < 5);
    A[get_global_id(0) + j] = i;
  }
}
