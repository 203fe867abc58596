// args: --local_size=64
// A pointer that may point into two arrays: a target local (1, 2) and an offset local; a
// statement through it runs once per array, under a test of the target. `NULL` is
// target 0: an access through it is `assert p_target != 0` (a null pointer access).
__kernel void k(__global float *A, __global float *B, int i) {
  __global float *p = (i == 0) ? A : B;
  p[get_local_id(0)] = 1.0f;
  __global float *q = NULL;
  if (i > 4)
    q = A + 1;
  if (q != NULL)
    q[get_local_id(0)] = p[get_local_id(0)];
  float v = q[0];
  if (p == B)
    B[0] = v;
}
