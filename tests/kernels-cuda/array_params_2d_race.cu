//xfail:NOT_ALL_VERIFIED
//--blockDim=[8,8] --gridDim=1
//array_params_2d_race.cu: error: possible write-write race on out\[

// A row of 8 per thread row: `out[x][0]` is written by the 8 threads of a column (every
// `y`), with different values.
__global__ void column(float out[][8]) {
  int x = threadIdx.x, y = threadIdx.y;
  out[x][0] = y;
}
