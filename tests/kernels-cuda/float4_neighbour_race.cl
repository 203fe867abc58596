//xfail:NOT_ALL_VERIFIED
//--local_size=64 --num_groups=8
//error: possible [a-z]+-[a-z]+ race on data\[\d+\] \(bytes 12..15\)

// Reading the next element's `.w`, which its own thread writes: a race on bytes 12..15.
__kernel void shift(__global float4 *data) {
  size_t i = get_global_id(0);
  float w = data[i + 1].w;
  data[i].w = w;
}
