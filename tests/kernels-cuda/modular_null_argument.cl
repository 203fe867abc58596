//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4 --no-inline
//modular_null_argument.cl:10:3: error: possible null pointer access for work item

// Under --no-inline a function that nothing calls is checked on its own with arbitrary
// arguments, a pointer pointing into some array of its memory. Nothing in this file is
// in `__local` memory, so `flags` can only be NULL: each work-item writes a slot of its
// own, which would be race-free, but through a null pointer.
void mark(__local int *flags) {
  flags[get_local_id(0)] = 0;
}

__kernel void k(__global int *out) {
  out[get_global_id(0)] = 1;
}
