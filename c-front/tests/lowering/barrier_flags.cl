// args: --local_size=64 --num_groups=2
// OpenCL barrier flags name the memories a barrier orders; flags that depend on the
// work-item become a per-thread fence.
__kernel void k(__global int *out, __local int *scratch) {
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[63 - get_local_id(0)];
  barrier(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  barrier(0);
  int f = get_local_id(0) == 0 ? CLK_LOCAL_MEM_FENCE : 0;
  barrier(f);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
}
