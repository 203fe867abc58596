// args: --local_size=32
// Casts that would view the bytes of a `double` (one word in kpl, which it cannot keep at
// bytes) are refused, each at its place, and so is `as_int` of a vector; a `float` view
// of a `ulong` keeps 4 bytes per word and is fine. (Views kpl keeps at bytes:
// byte_views.cl.)
__kernel void k(__global double *d, __global ulong *u) {
  size_t t = get_local_id(0);
  ((__global int *)d)[t] = 1;
  ((__global float *)u)[t] = 2.0f;
  int x = as_int((char4)(1, 2, 3, 4));
}
