// An image the kernel both reads and writes (OpenCL 2.0's `read_write`) is refused: kpl's
// image reads are arbitrary values, not accesses that could race with the writes.
__kernel void k(read_write image2d_t img, sampler_t s) {
  int2 at = (int2)(get_global_id(0), 0);
  float4 p = read_imagef(img, s, at);
  write_imagef(img, at, p);
}
