//pass
//--local_size=32 --num_groups=4

// Both threads keep the invariant, so the assertion about the other thread holds (with
// `--asymmetric-asserts`, `asymmetric_invariants.cl`, it cannot be shown).

__kernel void count(int x) {
  __requires(x > 32);
  int i = 0;
  while (__invariant(i >= 0), i < x - (int)get_local_id(0)) {
    i = i + 1;
    __assert(__other_bool(__implies(__enabled(), i >= 0)));
  }
}
