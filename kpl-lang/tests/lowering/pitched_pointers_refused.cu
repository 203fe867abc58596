// Byte offsets kpl does not take: one with side effects (it would be evaluated twice), a
// cast of something that is not an array, and a byte view used as bytes.
__global__ void k(float *p, unsigned pitch, int s) {
  int i = 0;
  float *row = (float *)((char *)p + i++ * pitch);
  float *other = (float *)((char *)s + pitch);
  char *c = (char *)p + pitch;
  c[0] = 1;
}
