//xfail:NOT_ALL_VERIFIED
//--blockDim=[32,4] --gridDim=[2,2]
//error: this assertion might not hold

// kpl moves a pointer by whole words only: a byte offset that is not a multiple of the
// element's 4 bytes (here when `pitch` is odd) fails the alignment assertion kpl adds at the
// cast, as the access would fault on a GPU.

__global__ void fill(float *p, unsigned pitch) {
  __requires(pitch >= 4 * 64 && pitch <= 65536);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float *row = (float *)((char *)p + y * pitch);
  row[x] = x;
}
