// args: --blockDim=32
// kpl lowers a `goto` forward to a label of its block or an enclosing one: a backward one,
// one into a block and one to a missing label are errors, as is a label defined twice.
__global__ void k(int *a) {
  int t = threadIdx.x;
top:
  a[t] = 1;
  if (t == 1) goto top;
  if (t == 2) goto inside;
  {
  inside:
    a[t] = 2;
  }
  goto nowhere;
twice:
twice:
  ;
}
