//pass
//--global_size=4096 --local_size=256

__kernel void add(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
