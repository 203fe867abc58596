//xfail:NOT_ALL_VERIFIED
//--local_size=32 --num_groups=4 --asymmetric-asserts
//error: this assertion might not hold

// `--asymmetric-asserts` (GPUVerify's option) checks and assumes loop invariants, stated
// and inferred, for one thread of the pair only. The assertion about the other thread's
// `i` then has nothing to rest on: a false alarm the option is known for. Without the
// option, `asymmetric_invariants_both.cl` verifies the same kernel.

__kernel void count(int x) {
  __requires(x > 32);
  int i = 0;
  while (__invariant(i >= 0), i < x - (int)get_local_id(0)) {
    i = i + 1;
    __assert(__other_bool(__implies(__enabled(), i >= 0)));
  }
}
