//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=4
//error: possible [a-z]+-[a-z]+ race on data\[\d+\]

// vload4 at a two-float stride: neighbouring work items' four floats overlap.
__kernel void smear(__global float *data) {
  size_t i = get_global_id(0);
  float4 v = vload4(0, data + 2 * i);
  vstore4(v + 1.0f, 0, data + 2 * i);
}
