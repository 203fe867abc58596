//xfail:NOT_ALL_VERIFIED
//--blockDim=8 --gridDim=1
//error: possible write-write race on table\[0\]

// Two pointers into one array differ as stored words: a write of `out` and one of
// `out + 1` to the same element race (benign-race tolerance compares the values).

__global__ void k(int **table, int *out) {
  table[threadIdx.x] = out;
  table[0] = out + 1;
}
