// args: --local_size=8 --num_groups=1
// OpenCL's 64-bit `atom_*` (cl_khr_int64_base_atomics): `atom_inc` adds 1 as a word pair.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void k(__global long *g, __local ulong *l) {
  long old = atom_inc(&g[get_local_id(0)]);
  atom_min(g, old);
  atom_cmpxchg(l, 0UL, (ulong)get_local_id(0));
}
