// args: --local_size=32
// Casts that would view a word's bytes as elements of another size are refused, each at
// its place: kpl keeps one element per word, not a byte-level memory.
__kernel void k(__global int *a, __global double *d, __global ulong *u, __local short *s) {
  size_t t = get_local_id(0);
  ((__global char *)a)[t] = 0;
  ((__global int *)d)[t] = 1;
  ((__global float *)u)[t] = 2.0f;
  atomic_add((__local int *)s, 1);
  int x = as_int((char4)(1, 2, 3, 4));
}
