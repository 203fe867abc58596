// args: --blockDim=32
// A forward `goto` sets its label's flag: the statements up to the label are skipped, the
// loops it leaves are left by `break`, and the label clears the flag (it may be reached
// again in a later iteration).
__global__ void k(int *a, int n) {
  int t = threadIdx.x;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 4; j++) {
      if (a[t] == j) goto next;
      a[t] += 1;
    }
    a[t] = 0;
  next:
    a[t] *= 2;
  }
  if (t == 0) goto end;
  a[t] = 5;
end:
  ;
}
