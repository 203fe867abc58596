//xfail:NOT_ALL_VERIFIED
//--local_size=32 --num_groups=2
//error: this assertion might not hold

// `clz` of a nonzero value is below 32, but 0 has 32 leading zeros.
__kernel void k(__global int *out, uint x) {
  __assert(clz(x) < 32);
  out[get_global_id(0)] = clz(x);
}
