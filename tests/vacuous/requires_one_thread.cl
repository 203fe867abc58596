//pass
//--local_size=64 --num_groups=1

// A thread-dependent precondition that no two work-items of the one group satisfy
// together: the two-thread check holds vacuously (the failing assertion is never
// checked), and the report says so. (Kept out of tests/kernels-cuda: no input is feasible
// for `kpl run` or `difftest`.)

__kernel void k(__global int *a) {
  __requires(get_local_id(0) == 0);
  a[get_group_id(0)] = 1;
  __assert(false);
}
