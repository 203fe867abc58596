// `auto` declarations kpl refuses: no initialiser, an array, and an initialiser whose type
// kpl cannot tell without lowering it.
__global__ void k(float *a, int *b) {
  auto none;
  auto arr[2] = {1, 2};
  auto r = atomicAdd(&b[0], 1);
  a[0] = r;
}
