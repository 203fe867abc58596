//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
//confirmed write-write race on a
//
// An element of a struct variable's array field read at a constant index (`p.v[0]`, held
// in a local of its own) is the value stored there. kpl once read it as 0: the early
// return below was then taken by every thread and the race on `a[0]` went unreported.
struct Pair {
  int v[2];
};

__global__ void k(int *a) {
  Pair p;
  p.v[0] = 1;
  p.v[1] = 2;
  if (p.v[0] + p.v[1] == 0) {
    return;
  }
  a[0] = threadIdx.x;
}
