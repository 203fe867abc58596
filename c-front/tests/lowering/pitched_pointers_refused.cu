// Byte offsets kpl does not take: a cast of something that is not an array. (A byte view
// used as bytes keeps the array at bytes: byte_views.cl.)
__global__ void k(float *p, unsigned pitch, int s) {
  float *other = (float *)((char *)s + pitch);
}
