// args: --local_size=64
// A function that returns a pointer: each call's result is a pointer variable of its
// own, assigned by the function's `return`s; one without a body gives a pointer that may
// be anything, so every access through it is a possible null pointer access.
__global int *pick(__global int *a, __global int *b, int i) {
  if (i)
    return a + 4;
  return b;
}

__global int *unknown(__global int *a);

__kernel void k(__global int *A, __global int *B, int i) {
  __global int *p = pick(A, B, i);
  p[get_local_id(0)] = 0;
  __global int *q = unknown(A);
  q[0] = 1;
}
