//pass
//--local_size=32 --num_groups=2

// OpenCL views: a float array read as float4s (each work-item its own four words),
// written back through a uint view with as_uint, and a long array's low words through
// a uint view (little-endian: word 2i is the low half of element i).

__kernel void views(__global float *a, __global uint *b, __global ulong *l) {
  size_t i = get_global_id(0);
  float4 v = ((__global float4 *)a)[i];
  ((__global uint *)b)[4 * i] = as_uint(v.x);
  l[i] = 0x100000002UL;
  __assert(((__global uint *)l)[2 * i] == 2);
  __assert(((__global uint *)l)[2 * i + 1] == 1);
  __assert(as_uint(as_float(as_uint(v.w))) == as_uint(v.w));
}
