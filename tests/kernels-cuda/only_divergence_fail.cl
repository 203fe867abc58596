//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1 --only-divergence
//barrier may be reached by non-uniform control flow

// --only-divergence still finds a barrier that only some work-items reach.
kernel void foo(global int *A) {
  if (get_local_id(0) < 5) {
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  A[0] = get_local_id(0);
}
