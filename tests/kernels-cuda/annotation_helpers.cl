//pass
//--local_size=32 --num_groups=2

// GPUVerify's annotation helpers: __is_pow2, __add, __distinct_bool, candidate assertions
// (dropped: kpl has none), Bugle's non-temporal load markers, and __dominator_enabled in a
// loop invariant (true for every thread the invariant binds: those that entered the loop).

__kernel void helpers(__local int *A, __global int *out) {
  int t = get_local_id(0);
  __candidate_assert(t >= 0);
  __non_temporal_loads_begin();
  __non_temporal_loads_end();
  for (int s = 1;
       __invariant(__is_pow2(s)),
       __global_invariant(__implies(__dominator_enabled() & __write(A), __write_offset_bytes(A) / sizeof(int) == t)),
       s < 32; s = s * 2) {
    A[t] = __add(s, t);
  }
  __assert(__is_pow2(64));
  __assert(__distinct_bool(t == 0) | __implies(t != 0, __other_int(t) != 0));
  out[get_global_id(0)] = A[t];
}
