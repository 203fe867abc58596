// args: --local_size=8 --num_groups=2
// A function-wide invariant that is not at the end, or that names a parameter the
// function assigns, is refused (GPUVerify's rules).
__kernel void k(__global int *A, int n) {
  __function_wide_invariant(n > 0);
  for (n = 0; n < 4; n++) { A[get_global_id(0)] = n; }
  __function_wide_invariant(n >= 0);
}
