// args: --blockDim=8 --gridDim=1
// Pre and post increments, compound assignments, an assignment used as a value.
__global__ void k(int *a) {
  int i = threadIdx.x;
  int j = i++;
  int m = ++i;
  a[i] += j;
  a[m] <<= 1;
  int z = (j = 7) + 1;
  a[i + 8] = z;
}
