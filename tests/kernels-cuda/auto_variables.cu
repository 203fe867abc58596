//pass
//--blockDim=64 --gridDim=2

// C++ `auto` locals take their initialiser's type: an `unsigned` index, a `float`, a struct
// and a vector by value, a pointer into an array, an `unsigned char` element (not promoted),
// a 64-bit sum, a `bool` comparison. The assertions hold only with those types.

#include <assert.h>

struct cell { float u, v; };

__global__ void step(float *a, cell *cells, unsigned char *tag, long long *big, int n) {
  auto i = blockIdx.x * blockDim.x + threadIdx.x;
  auto down = i - (i + 1);               // unsigned: wraps
  assert(down > 0);
  const auto f = a[i] * 0.5f;
  auto c = cells[i];
  auto m = make_float2(f, f);
  auto p = &a[i];
  for (auto j = 0; j < n; j++) {
    *p += 1.0f;
  }
  auto t = tag[i];
  t = 300;                               // unsigned char: keeps 44
  assert(t == 44);
  auto s = 3;
  s = s - 4;
  assert(s < 0);
  auto wide = big[i] - big[i] + 1;       // 64-bit: 1 << 40 is not 0
  wide = wide << 40;
  assert(wide != 0);
  auto less = f < 0.0f;
  less = 7;
  assert(less == 1);
  c.u = m.y;
  cells[i] = c;
  tag[i] = t;
}
