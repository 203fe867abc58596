//xfail:NOT_ALL_VERIFIED
//--blockDim=[32,4] --gridDim=[2,2]
//race

// A pitch below a row's width makes rows overlap: thread (x, y) and thread
// (x + pitch / 4, y - 1) write one float.

__global__ void fill(float *p, unsigned pitch) {
  __requires(pitch % 4 == 0);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float *row = (float *)((char *)p + y * pitch);
  row[x] = x;
}
