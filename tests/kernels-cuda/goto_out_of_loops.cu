//pass
//--blockDim=64 --gridDim=2

// A search that leaves two nested loops by `goto` (as Rodinia's mummergpu does), then
// writes its own element; each thread reads and writes only its own row and element.
__global__ void k(int *rows, int *found) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int hit = -1;
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 8; j++) {
      if (rows[t * 32 + i * 8 + j] == 7) {
        hit = i * 8 + j;
        goto record;
      }
    }
  }
record:
  found[t] = hit;
}
