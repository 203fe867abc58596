//pass
//--blockDim=[32,4] --gridDim=[2,2]

// A pitched 2-D array as `cudaMallocPitch` gives it: row `y` starts `y * pitch` bytes
// after `p`, reached by the cast through `char *` that every pitched kernel writes. Each
// pitch is a whole number of elements and at least a row's width (64), so rows do not
// overlap and the alignment kpl asserts at the cast holds.

struct cell { float u, v; };

__global__ void smooth(float *p, cell *q, unsigned stride, unsigned qstride) {
  unsigned pitch = (stride % 64 + 64) * 4;
  unsigned qpitch = (qstride % 64 + 64) * 8;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float *row = (float *)((char *)p + y * pitch);
  row[x] = x + y;
  *((float *)((char *)p + y * pitch) + x) += 1.0f;
  cell *c = (cell *)((unsigned char *)q + y * qpitch) + x;
  c->u = row[x];
  c->v = -row[x];
}
