// args: --local_size=8 --num_groups=1
// OpenCL vector types: a local per component, element-wise operators (a scalar operand
// widens), literals, splats, swizzles (`.xy`, `.s10`, `.lo`), compound literals, and arrays
// of vectors as word arrays.
__kernel void k(__global float4 *p, __global int2 *q) {
  int i = get_local_id(0);
  float4 v = p[i];
  float4 w = v * 2.0f + (float4)(1.0f, 2.0f, v.xy);
  w.zw = v.s10;
  p[i] = w;
  int2 a = (int2)(3);
  a.lo = a.y + 1;
  q[i] = a == (int2){4, 3};
}
