// args: --local_size=64
// `char` and `short` (and unsigned forms) are words holding the value C promotes to
// `int`: a conversion to one keeps its low bits, sign-extended when signed (stores,
// initialisers, casts, `++`, parameters); arithmetic is on `int`.
__kernel void k(__global uchar *A, char c, ushort s) {
  uchar x = A[get_local_id(0)];
  x++;
  short d = (short)(x * 300);
  A[get_local_id(0)] = x + c + s + d;
}
