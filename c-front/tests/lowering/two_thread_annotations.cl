// args: --local_size=8 --num_groups=2
// GPUVerify's two-thread annotations over KPL's `other` and `enabled`.
kernel void foo(global int *A, int n) {
  int k = n * 2;
  for (int i = 0; __invariant(__implies(__enabled() & __other_bool(__enabled()), __uniform_int(i))), i < n; i++) {
  }
  __assert(__implies(__same_group, __distinct_int(get_local_id(0))));
  __assert(__all(k == 2 * n));
  __assert(__at_most_one(get_global_id(0) == 0));
  A[get_global_id(0)] = k;
}
