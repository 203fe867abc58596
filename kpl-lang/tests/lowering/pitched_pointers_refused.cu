// Byte offsets kpl does not take: a cast of something that is not an array, and a byte
// view used as bytes.
__global__ void k(float *p, unsigned pitch, int s) {
  float *other = (float *)((char *)s + pitch);
  char *c = (char *)p + pitch;
  c[0] = 1;
}
