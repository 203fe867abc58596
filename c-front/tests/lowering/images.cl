// args: --pointer-bitwidth=32
// OpenCL images: an image is global memory of 4-word pixels (`__global uint *`); a write
// stores the pixel's words at `(x + (y << 14)) * 4 + k` (1-D: `x * 4 + k`; 3-D:
// `x + (y << 10) + (z << 20)`); a read, and an image's size, are arbitrary values (its
// operands still evaluated); a sampler is a `uint` with clang's `CLK_*` values.
constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

__kernel void k(__read_only image2d_t src, __write_only image2d_t dst, write_only image1d_t line,
                write_only image3d_t vol, __global int *A) {
  int2 at = (int2)(get_global_id(0), A[get_global_id(0)]);
  int4 p = read_imagei(src, s, at);
  write_imagei(dst, at, p);
  write_imagef(line, get_global_id(0), (float4)(get_image_width(src)));
  write_imageui(vol, (int4)(1, 2, 3, 0), (uint4)(7));
}
