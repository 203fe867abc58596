// args: --local_size=32 --num_groups=2
// An atomic on an int seen in an array kept at bytes is KPL's byte form (`add_bytes`,
// `add64_bytes`): one atomic on the 4 (8) one-byte elements from its index.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void k(__local short *A, __global char *g, int B) {
  A[get_local_id(0) + 2] = 42;
  int old = atomic_add((__local int *)A, B);
  atomic_cmpxchg((__global int *)(g + 1), old, 3);
  atom_add((__global long *)(g + 8), (long)B);
  atomic_max((__global int *)g + 4, B);
}
