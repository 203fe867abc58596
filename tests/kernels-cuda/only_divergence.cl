//pass
//--local_size=64 --num_groups=1 --only-divergence

// GPUVerify's --only-divergence: the race on B[0] is not checked; the barrier is reached
// by every work-item, so the kernel verifies (with a note that races were not checked).
kernel void foo(global int *A, global int *B) {
  int tmp = A[get_global_id(0)];
  barrier(CLK_GLOBAL_MEM_FENCE);
  B[0] = tmp;
}
