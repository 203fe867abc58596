//pass
//--local_size=32 --num_groups=2

// OpenCL's integer built-ins are exact: the verifier proves each value below for every
// input, and `kpl run` computes the same.
__kernel void k(__global int *out, int x) {
  __assert(add_sat(2147483647, 1) == 2147483647);
  __assert(add_sat(-2147483647, -5) == (-2147483647 - 1));
  __assert(sub_sat(3u, 5u) == 0u);
  __assert(hadd(3, 5) == 4 && rhadd(3, 4) == 4 && hadd(-3, -4) == -4);
  __assert(clz(1u) == 31 && clz(0u) == 32 && clz(0x80000000u) == 0);
  __assert(popcount(0xF0F0u) == 8 && popcount(0u) == 0);
  __assert(rotate(1u, 31u) == 0x80000000u && rotate(0x80000001u, 1u) == 3u);
  __assert(clamp(-5, 0, 10) == 0 && clamp(x, 0, 10) <= 10);
  __assert(mul24(3, 4) == 12 && mad24(3, 4, 5) == 17);
  __assert(select(1, 2, x > 0) == (x > 0 ? 2 : 1));
  out[get_global_id(0)] = popcount((uint)x);
}
