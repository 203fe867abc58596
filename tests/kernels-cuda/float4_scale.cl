//pass
//--local_size=64 --num_groups=8

// OpenCL vectors: loads and stores of float4, element-wise arithmetic with a scalar,
// swizzles and a vector literal; the assertion checks an integer swizzle exactly.
__kernel void scale(__global float4 *data, float k) {
  size_t i = get_global_id(0);
  float4 v = data[i];
  float4 w = v * k + (float4)(0.0f, 0.0f, v.xy);
  w.zw = w.wz;
  data[i] = w;
  int4 t = (int4)(1, 2, 3, 4);
  int2 u = t.wy + (int2)(10);
  __assert(u.x == 14 && u.y == 12 && t.s3 == 4);
}
