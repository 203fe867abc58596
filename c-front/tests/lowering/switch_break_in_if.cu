// args: --blockDim=32
// A `break` inside an `if` of a case ends the switch for the threads that take it: the
// rest of the case, and the cases it falls into, are skipped for them.
__global__ void k(int *a, int mode) {
  int t = threadIdx.x;
  switch (mode) {
  case 0:
    if (t % 2 == 0)
      break;
    a[t] = 1;
  case 1:
    a[t] += 2;
    break;
  default:
    a[t] = 0;
  }
}
