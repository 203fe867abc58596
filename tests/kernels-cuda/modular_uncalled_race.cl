//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4 --no-inline
//modular_uncalled_race.cl: error: possible write-write race on

// Under --no-inline a function that nothing calls is still checked, on its own, with
// arbitrary arguments (a pointer into some `__local` array: the kernel has one): every
// work-item writes its id to the same element.
void mark(__local int *flags) {
  flags[0] = get_local_id(0);
}

__kernel void k(__global int *out) {
  __local int seen[64];
  seen[get_local_id(0)] = 1;
  out[get_global_id(0)] = seen[get_local_id(0)];
}
