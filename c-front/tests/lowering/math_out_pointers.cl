// args: --local_size=32
// Math functions with results through pointers: the pointed-at elements are written
// arbitrary values (so they are accesses, checked like any other), the result is arbitrary.
__kernel void k(__global const float *x, __global float *c, __global float *ip, __global int *e) {
  size_t i = get_global_id(0);
  float s = sincos(x[i], &c[i]);
  float f = modf(s, ip + i);
  float m = frexp(f, &e[i]);
  c[i] = m;
}
