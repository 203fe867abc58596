//pass
//--local_size=1 --num_groups=1

// 64-bit identities proved for every value of the parameters (pairs of words in the
// verifier, exact): carries, shifts by constant and variable amounts, division by powers
// of two, signed and unsigned comparisons, negation, truncation and extension.
__kernel void k(__global int *out, long a, long b, ulong c, ulong d, int s, int t)
{
  __assert((a + b) - b == a);
  __assert(a * 8 == a << 3);
  __assert((c >> 5) == c / 32);
  __assert((a / 4) * 4 + a % 4 == a);
  __assert((c / 64) * 64 + c % 64 == c);
  __assert((a < b) == !(a >= b));
  __assert((a < b) == (b > a));
  __assert((c <= d) == !(d < c));
  __assert(-a == 0 - a);
  __assert(~a == -a - 1);
  __assert((long)(int)a == ((a << 32) >> 32));
  __assert((ulong)(uint)c == (c & 0xffffffffUL));
  __assert((c * 3) == c + c + c);
  __assert((a * -2) == -(a + a));
  if (s == 5) { __assert((c << s) == (c << 5)); __assert((c >> s) == (c >> 5)); __assert((a >> s) == (a >> 5)); }
  if (s == 37) { __assert((c << s) == (c << 37)); __assert((c >> s) == (c >> 37)); __assert((a >> s) == (a >> 37)); }
  if (s == 32) { __assert((c << s) == (c << 32)); __assert((a >> s) == (a >> 32)); }
  if (s == 0) { __assert((a >> s) == a); __assert((c << s) == c); }
  out[get_global_id(0)] = 1;
}
