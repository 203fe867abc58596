// args: --local_size=32 --num_groups=4
// A `for` loop over a 64-bit counter gets its candidates against a ghost copy of its
// start (`long_counters.rs`), and the launch folds the high words of the ids
// (`word_ranges.rs`): `32 * b`'s high word is 0 for 4 groups.
__kernel void k(__global float *y, int n) {
  long b = get_group_id(0);
  long t = get_local_id(0);
  for (long i = 32 * b; i < n; i += 128)
    y[i + t] = 0.0f;
}
