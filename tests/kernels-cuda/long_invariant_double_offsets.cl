//pass
//--local_size=32 --num_groups=4

// A loop invariant over 64-bit locals (computed through temporaries, which kpl inlines)
// and byte offsets into a `double` array: one element is 8 bytes, as `sizeof(double)`
// says, though kpl keeps it in one word.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void k(global double *a, int m) {
  long t0 = get_local_id(0);
  for (long c = t0; c < m; c += 32) {
    __invariant((c - t0) % 32 == 0);
    a[c] = 0.;
  }
  __function_wide_invariant(__write_implies(a, ((__write_offset_bytes(a) / sizeof(double)) - t0) % 32 == 0));
}
