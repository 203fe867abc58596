//pass
//--local_size=64 --num_groups=2

// `uchar` and `short` arithmetic wraps as C's does: a value converted to a narrow type
// keeps its low bits (sign-extended when signed), and a `char` argument is in range.
__kernel void k(__global uchar *out, char bias) {
  uchar x = 250;
  x += 10;
  __assert(x == 4);
  short s = (short)40000;
  __assert(s == 40000 - 65536);
  __assert(bias >= -128 && bias <= 127);
  out[get_global_id(0)] = x + bias;
}
