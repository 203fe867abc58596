// args: --local_size=32 --num_groups=2
// Arrays that a pointer cast views with elements of another size are kept one byte per
// word (`bytes.rs`): each access of an n-byte element is n byte accesses, its value
// assembled from (or split into) the bytes, low byte first; offsets count bytes. `b`
// (ints seen as chars), `s` (shorts seen as ints) and `v` (uchars seen as uchar4s) are
// kept at bytes; `out` is not.
__kernel void k(__global int *b, __local short *s, __global uchar *v, __global int *out) {
  size_t t = get_local_id(0);
  __global char *c = (__global char *)b;
  c[4 * t + 1] = 7;
  out[t] = c[4 * t];
  s[t] = (short)t;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int *w = (__local int *)s;
  out[t] += w[t / 2];
  uchar4 q = ((__global uchar4 *)v)[t];
  out[t] += q.y;
  __global char *d = c + 2;
  memcpy(d, &b[t], 2);
}
