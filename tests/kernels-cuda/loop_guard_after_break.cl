//pass
//--local_size=[32] --num_groups=[4]

// A C for loop is a loop with a break at its head; a thread still in the loop has not left it,
// so the 64-bit counter's candidate (at least its start) holds in it and bounds s[c3].
#define MIN(x,y)    ((x) < (y) ? (x) : (y))
__kernel void k(__global double *A, __global double *B)
{
  int n = 128;
  int m = 128;
  long t0 = get_local_id(0);
  __local double s[32];
  double acc = 0;
  for (long c1 = 0; c1 < m; c1 += 32) {
    s[t0] = A[t0 + c1];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (long c3 = 0; c3 <= MIN(31, m - c1 - 1); c3 += 1)
      acc += s[c3];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
  B[get_global_id(0)] = acc;
}
