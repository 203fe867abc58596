// args: --local_size=8 --num_groups=1
// OpenCL's atomic_inc and atomic_dec add and subtract 1; atom_* are the same functions.
__kernel void k(__global uint *a, __local int *s) {
  atomic_inc(a);
  atom_add(&a[get_local_id(0)], 2u);
  int m = atomic_min(s + 1, -3);
  atomic_cmpxchg(&s[0], 0, m);
  atomic_fetch_or(&a[1], 4u);
}
