// args: --local_size=8 --num_groups=2
// GPUVerify's `__function_wide_invariant(e)`, at the end of a function body: an invariant
// of every loop of that function.
__kernel void k(__global int *A, int n) {
  int i = 0;
  while (i < n) {
    A[get_global_id(0)] = i;
    i = i + 2;
  }
  __function_wide_invariant(i % 2 == 0);
}
