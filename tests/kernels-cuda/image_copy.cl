//pass
//--local_size=[8,8] --num_groups=[4,4] --no-inline

// OpenCL images: each work item copies its own pixel (a read of a read-only image races
// with nothing; the written pixels are distinct), with a program-scope sampler.
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void copy(__read_only image2d_t src, __write_only image2d_t dest) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  float4 p = read_imagef(src, nearest, at);
  if (at.x < get_image_width(dest) && at.y < get_image_height(dest)) {
    write_imagef(dest, at, p * 2.0f);
  }
}
