//xfail:NOT_ALL_VERIFIED
//--local_size=32 --num_groups=4 --no-infer
//long_invariant_double_offsets_wrong.cl:15:3: error: loop invariant might not be maintained

// As long_invariant_double_offsets.cl, but the invariant counts 4 bytes per `double`:
// then it does not hold (an element at index 32 + t0 is 256 + 8 t0 bytes in).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void k(global double *a, int m) {
  long t0 = get_local_id(0);
  for (long c = t0; c < m; c += 32) {
    a[c] = 0.;
  }
  __function_wide_invariant(__write_implies(a, ((__write_offset_bytes(a) / 4) - t0) % 32 == 0));
}
