// args: --local_size=8 --num_groups=2
// OpenCL 1.2's fences order a work-item's accesses as its work-group sees them: group
// scope, whatever their flags; the read fence only acquires, the write fence only releases.
// OpenCL 2.0's `atomic_work_item_fence` takes its scope, and its order's direction (a
// relaxed one is no fence).
__kernel void k(__global int *data, __global int *flag) {
  data[get_group_id(0)] = 1;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);
  flag[get_group_id(0)] = 1;
}
