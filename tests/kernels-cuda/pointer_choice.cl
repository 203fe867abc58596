//pass
//--local_size=64 --num_groups=4

// A pointer chosen between two buffers by a kernel argument: every work-item writes its
// own element of whichever buffer it is.
__kernel void k(__global float *A, __global float *B, int which) {
  __global float *dst = (which == 0) ? A : B;
  dst[get_global_id(0)] = get_global_id(0);
}
