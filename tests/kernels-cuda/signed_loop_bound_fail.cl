//xfail:NOT_ALL_VERIFIED
//--local_size=32 --num_groups=4
//this assertion might not hold

// From an arbitrary start the counter can be negative: the assertion fails.
__kernel void k(__global int *out, int x, int y) {
  for (int i = x; i < y; i++) {
    __assert(i >= 0);
    out[get_global_id(0)] = i;
  }
}
