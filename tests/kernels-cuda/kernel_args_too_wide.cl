//xfail:COMMAND_LINE_ERROR
//--local_size=2 --num_groups=1 --kernel-args=k,0x100000000
//is for a parameter of 32 bits
/* A 64-bit value for an `int` parameter is refused, not truncated. */

kernel void k(int m) {
  __assert(m == 0);
}
