// args: --blockDim=8 --gridDim=1
// A struct variable's pointer field used or copied before it is given an array: kpl
// says so (it never keeps the copy's old target, nor guesses one).
struct V { int *d; int n; };
__global__ void k(int *out) {
  V s;
  s.n = 1;
  V t;
  t.d = out;
  t = s;
  V u;
  u.d[threadIdx.x] = 2;
}
