//pass
//--blockDim=[32,4] --gridDim=[2,2]

// A pitched 2-D array as `cudaMallocPitch` gives it: row `y` starts `y * pitch` bytes
// after `p`, reached by the cast through `char *` that every pitched kernel writes. With
// the pitch a whole number of floats and at least a row's width, rows do not overlap.

struct cell { float u, v; };

__global__ void smooth(float *p, cell *q, unsigned pitch, unsigned qpitch, int width) {
  __requires(pitch % 4 == 0);
  __requires(qpitch % 8 == 0);
  __requires(width == 64);
  __requires(pitch >= 4 * 64 && pitch <= 65536);
  __requires(qpitch >= 8 * 64 && qpitch <= 65536);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float *row = (float *)((char *)p + y * pitch);
  row[x] = x + y;
  *((float *)((char *)p + y * pitch) + x) += 1.0f;
  cell *c = (cell *)((unsigned char *)q + y * qpitch) + x;
  c->u = row[x];
  c->v = -row[x];
}
