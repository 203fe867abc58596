//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1
//barrier divergence

__kernel void k(__global int *a) {
  if (get_local_id(0) < 16)
    barrier(CLK_GLOBAL_MEM_FENCE);
  a[get_local_id(0)] = 0;
}
