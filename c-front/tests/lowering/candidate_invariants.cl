// args: --local_size=4 --num_groups=1
// GPUVerify's candidate invariants: KPL `candidate`s, which Houdini keeps only if it
// proves them.
kernel void foo(global int *A) {
  for (int d = 1; __candidate_invariant(d == 3), __invariant(d >= 1), d < 64; d <<= 1) {
    __candidate_global_invariant(d > 0);
    A[get_global_id(0)] = d;
  }
}
