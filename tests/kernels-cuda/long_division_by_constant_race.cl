//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=2
//possible write-write race

// As long_division_by_constant.cl, but two threads' quotients meet: threads 2k and 2k+1
// write one element.

kernel void k(global int *out) {
  long i = get_global_id(0);
  out[(3 * i + 2) / 3 / 2] = (int)i;
}
