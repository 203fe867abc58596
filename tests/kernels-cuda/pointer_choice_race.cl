//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=1
//error: possible write-write race on A\[0\]

// Odd and even work-items pick different buffers, but all of one parity write element 0
// of theirs.
__kernel void k(__global int *A, __global int *B) {
  __global int *dst = (get_local_id(0) % 2) ? A : B;
  dst[0] = get_local_id(0);
}
