// Local C++ references: another name for an element of memory (its index fixed where the
// reference is bound), a struct element, a local variable, and a `const` reference to a
// value (a copy).

#include <assert.h>

struct edge { unsigned from, to; };

__global__ void relabel(unsigned *label, edge *edges, int n) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = tid;
  unsigned &mine = label[i];
  i = 0;                        // the reference still names label[tid]
  mine = mine + 1;
  edge &e = edges[tid];
  e.to = e.from;
  unsigned t = 3;
  unsigned &r = t;
  r = 5;
  assert(t == 5);
  const unsigned &c = n + 1;
  label[tid] += c + i;
}
