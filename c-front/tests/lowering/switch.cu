// args: --blockDim=8 --gridDim=1
// `switch`: a case's statements run if its label or an earlier one matched (fall-through)
// and no `break` has ended the switch; `default` matches when no case does.
__global__ void k(int *a, int n) {
  int r = 0;
  switch (threadIdx.x % 4) {
  case 0:
    r = 10;
    break;
  case 1:
  case 2:
    r = 20;
  case 3:
    r += 1;
    break;
  default:
    r = -1;
  }
  a[threadIdx.x] = r;
}
