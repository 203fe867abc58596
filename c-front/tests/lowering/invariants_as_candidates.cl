// args: --local_size=4 --num_groups=1 --invariants-as-candidates
// GPUVerify's --invariants-as-candidates: every invariant becomes a candidate.
kernel void foo() {
  for (int i = 0; __invariant(0), i < 5; i++) {}
}
