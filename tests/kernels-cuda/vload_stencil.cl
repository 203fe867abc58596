//pass
//--local_size=64 --num_groups=4

// Each work item loads and stores its own four consecutive floats with vload4/vstore4.
__kernel void scale4(__global float *data, float k) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, data);
  vstore4(v * k, i, data);
}
