// args: --local_size=32
// 64-bit arithmetic on pairs of words: a sum carries from the low word, a comparison decides
// on the high words (signed for `long`) then the low ones, a product by a power of two is a
// shift, a general product takes its high word from 16-bit halves, `>>` moves bits across
// the words, division by a constant power of two rounds toward zero, and a conversion to
// `int` keeps the low word (from `int`, the high word is the sign).
__kernel void k(__global int *A, long n, ulong m, int s) {
  long i = get_local_id(0);
  long x = n + i;
  ulong y = m * 3;
  if (x < n && y >= m) {
    A[get_local_id(0)] = (int)(x >> s) + (int)(x / 4) + (int)(y << 2);
  }
}
