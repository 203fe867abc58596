//xfail:NOT_ALL_VERIFIED
//--local_size=8 --num_groups=1
//error: this assertion might not hold

// `.lo` of an int4 is its first two components, so `.lo.y` is 2, not 3.
__kernel void k(__global int *out) {
  int4 t = (int4)(1, 2, 3, 4);
  __assert(t.lo.y == 3);
  out[get_global_id(0)] = t.x;
}
