//pass
//--local_size=[64] --num_groups=[4] --pointer-bitwidth=64

// OpenCL's work-item functions return `size_t`: 64 bits on such a device. A launch below
// 2^32 work-items leaves the high word 0, so indices stay exact and cheap.
__kernel void k(__global float *A, __global ulong *B, int n) {
  size_t i = get_global_id(0);
  __assert(sizeof(i) == 8);
  __assert(get_global_size(0) == 256);
  B[i] = i * get_local_size(0) + get_local_id(0);
  if (i < n) A[i] = A[i] * 2.0f + (float)(uint)i;
}
